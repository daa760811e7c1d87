//! Baby Jubjub's parameters in circomlib's model: its fields ([`Base`], [`Scalar`]), the
//! arkworks curve configuration [`BabyJubjubConfig`] with circomlib's `a` and `d`, and
//! circomlib's constants (subgroup order, `Base8`, `Generator`). The bottom of the crate (with
//! `error`): the modules above build on these, and [`crate::curve`] re-exports them (the model
//! is described there).

use ark_ec::models::CurveConfig;
use ark_ec::twisted_edwards::{Affine, MontCurveConfig, Projective, TECurveConfig};
use ark_ff::MontFp;

/// Baby Jubjub's base field: BN254's scalar field (`ark_bn254::Fr`), the field circuits work in.
pub type Base = ark_ed_on_bn254::Fq;

/// Scalars of the prime-order subgroup: integers modulo `l` (`ark_ed_on_bn254::Fr`).
pub type Scalar = ark_ed_on_bn254::Fr;

/// Affine points of [`BabyJubjubConfig`] (arkworks type).
pub type BabyJubjubAffine = Affine<BabyJubjubConfig>;

/// Extended projective points of [`BabyJubjubConfig`] (arkworks type).
pub type BabyJubjubProjective = Projective<BabyJubjubConfig>;

/// Length of an encoded point.
pub const POINT_LEN: usize = 32;

/// Length of an encoded scalar or base-field element.
pub const SCALAR_LEN: usize = 32;

/// circomlib's `a` coefficient.
pub const COEFF_A: u64 = 168700;

/// circomlib's `d` coefficient.
pub const COEFF_D: u64 = 168696;

/// The order `l` of the prime-order subgroup, in decimal (circomlibjs `babyJub.subOrder`).
pub const SUBGROUP_ORDER_DEC: &str =
    "2736030358979909402780800718157159386076813972158567259200215660948447373041";

/// `Base8.x` in decimal (circomlibjs `babyJub.Base8[0]`).
pub const BASE8_X_DEC: &str = "5299619240641551281634865583518297030282874472190772894086521144482721001553";

/// `Base8.y` in decimal (circomlibjs `babyJub.Base8[1]`).
pub const BASE8_Y_DEC: &str = "16950150798460657717958625567821834550301663161624707787222815936182638968203";

const BASE8_X: Base = MontFp!("5299619240641551281634865583518297030282874472190772894086521144482721001553");
const BASE8_Y: Base =
    MontFp!("16950150798460657717958625567821834550301663161624707787222815936182638968203");

/// circomlib's `Generator` (= a point of order `8·l`; `Base8 = 8·Generator`), for tests and
/// interoperability only: nothing in this crate uses it as a base.
pub const GENERATOR_X_DEC: &str =
    "995203441582195749578291179787384436505546430278305826713579947235728471134";
/// `Generator.y` in decimal, see [`GENERATOR_X_DEC`].
pub const GENERATOR_Y_DEC: &str =
    "5472060717959818805561601436314318772137091100104008585924551046643952123905";

/// arkworks curve configuration for Baby Jubjub in circomlib's model
/// (`a = 168700`, `d = 168696`, generator `Base8`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct BabyJubjubConfig;

impl CurveConfig for BabyJubjubConfig {
    type BaseField = Base;
    type ScalarField = Scalar;

    const COFACTOR: &'static [u64] = &[8];

    // 8^{-1} mod l.
    const COFACTOR_INV: Scalar =
        MontFp!("2394026564107420727433200628387514462817212225638746351800188703329891451411");
}

impl TECurveConfig for BabyJubjubConfig {
    const COEFF_A: Base = MontFp!("168700");
    const COEFF_D: Base = MontFp!("168696");
    const GENERATOR: BabyJubjubAffine = BabyJubjubAffine::new_unchecked(BASE8_X, BASE8_Y);
    type MontCurveConfig = BabyJubjubConfig;
}

impl MontCurveConfig for BabyJubjubConfig {
    // Montgomery form B·v² = u³ + A·u² + u with A = 2(a+d)/(a-d), B = 4/(a-d).
    const COEFF_A: Base = MontFp!("168698");
    const COEFF_B: Base = MontFp!("1");
    type TECurveConfig = BabyJubjubConfig;
}
