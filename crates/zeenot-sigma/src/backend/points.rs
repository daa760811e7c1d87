//! Baby Jubjub point operations in the sigma back end: what ElGamal encryption, homomorphic
//! addition, a public multiple and rerandomisation need, proved as linear relations.
//!
//! A point during lowering is `base + Σ sᵢ·Pᵢ`: a public `base`, public points `Pᵢ` and secret
//! scalars `sᵢ` (a committed integer's opening, or a private `field` input used as a scalar).
//! `point_mul` by a public scalar scales every part; by a secret scalar it is allowed only on a
//! public point (a product of two secrets is not linear); `point_add` adds the parts. A point is
//! revealed only as an output: the verifier reads its coordinates (checked on the curve and in
//! the prime-order subgroup) and the statement gains `Q − base = Σ sᵢ·Pᵢ`, a Chaum–Pedersen-style
//! equation over the same secrets that the commitments open to. An encryption of a committed
//! `m` under a public key costs two equations and no circuit (Groth16: 2,721 constraints).
//!
//! `k·P` reads `k` modulo the subgroup order `l`, as the IR does for a point of the prime-order
//! subgroup; every public point is checked to be one before it is used.

use std::collections::HashMap;

use ark_ff::{BigInteger, PrimeField, Zero};
use zeenot_crypto::{Base, Point, Scalar};
use zeenot_ir::ir::{Op, Value};
use zeenot_ir::Program;

use super::{sc, unsupported, Lowering, V};
use crate::error::{Error, Result};
use crate::statement::Secret;

/// A point: `base + Σ secret·point`, and its value (the prover's; the identity for the
/// verifier, who never needs it).
#[derive(Clone, Debug)]
pub(super) struct Pt {
    base: Point,
    terms: Vec<(Secret, Point)>,
    value: Point,
}

impl Pt {
    fn public(p: Point) -> Self {
        Pt { base: p, terms: Vec::new(), value: p }
    }
}

/// A scalar of `point_mul`: public, or a secret with its value (the prover's).
enum Factor {
    Public(Scalar),
    Secret(Secret, Scalar),
}

/// The points of one lowering, and the secrets of private `field` inputs (created on first use,
/// in program order on both sides).
#[derive(Default)]
pub(super) struct Points {
    list: Vec<Pt>,
    /// `(is a product, arguments)` → the point both coordinate instructions share.
    of: HashMap<(bool, Vec<usize>), usize>,
    scalars: HashMap<usize, Secret>,
    /// Public points known valid: checked once, or computed from valid ones.
    valid: HashMap<(Base, Base), Point>,
}

/// `f mod l`: a field element read as a Baby Jubjub scalar.
pub(super) fn scalar_of_field(f: &Base) -> Scalar {
    Scalar::from_le_bytes_mod_order(&f.into_bigint().to_bytes_le())
}

pub(super) fn is_point_op(op: Op) -> bool {
    matches!(op, Op::PointAddX | Op::PointAddY | Op::PointMulX | Op::PointMulY)
}

impl Points {
    /// The value of one coordinate instruction: a public field element when the point is
    /// public, else the coordinate of a point the statement knows as a combination.
    pub(super) fn coordinate(
        &mut self,
        lw: &mut Lowering<'_>,
        vals: &[V],
        inputs: &[Option<Value>],
        index: usize,
    ) -> Result<V> {
        let p = lw.p;
        let inst = &p.body[index];
        let product = matches!(inst.op, Op::PointMulX | Op::PointMulY);
        let key = (product, inst.args.clone());
        let at = match self.of.get(&key) {
            Some(&at) => at,
            None => {
                let pt = if product {
                    let k = self.factor(lw, vals[inst.args[0]], inputs, p, index)?;
                    let q = self.point(lw, vals, inst.args[1], inst.args[2], p, index)?;
                    times(lw, k, &q, p, index)?
                } else {
                    let a = self.point(lw, vals, inst.args[0], inst.args[1], p, index)?;
                    let b = self.point(lw, vals, inst.args[2], inst.args[3], p, index)?;
                    let mut terms = a.terms;
                    terms.extend(b.terms);
                    Pt { base: a.base + b.base, terms, value: a.value + b.value }
                };
                if pt.terms.is_empty() {
                    self.valid.insert(pt.base.xy(), pt.base); // computed from valid points
                }
                self.list.push(pt);
                self.of.insert(key, self.list.len() - 1);
                self.list.len() - 1
            }
        };
        let y = matches!(inst.op, Op::PointAddY | Op::PointMulY);
        let pt = &self.list[at];
        Ok(if pt.terms.is_empty() {
            V::Field(if y { pt.base.y() } else { pt.base.x() }) // both sides know a public one
        } else {
            V::Coord(at, y)
        })
    }

    /// The point whose coordinates are the values `x`, `y`.
    fn point(
        &mut self,
        lw: &mut Lowering<'_>,
        vals: &[V],
        x: usize,
        y: usize,
        p: &Program,
        index: usize,
    ) -> Result<Pt> {
        match (vals[x], vals[y]) {
            (V::Field(x), V::Field(y)) => {
                if let Some(&q) = self.valid.get(&(x, y)) {
                    return Ok(Pt::public(q));
                }
                lw.public_points += 1;
                match Point::from_xy(x, y) {
                    Ok(q) => {
                        self.valid.insert((x, y), q);
                        Ok(Pt::public(q))
                    }
                    Err(_) if lw.stand_in.is_some() => Ok(Pt::public(Point::generator())), // counting only
                    Err(e) => Err(Error::Input(format!(
                        "a public point at instruction {index} is not a Baby Jubjub point of the prime-order \
                         subgroup ({e})"
                    ))),
                }
            }
            (V::Coord(i, false), V::Coord(j, true)) if i == j => Ok(self.list[i].clone()),
            _ => Err(unsupported(
                p,
                index,
                "a point made of coordinates of different points or of private values",
            )),
        }
    }

    fn factor(
        &mut self,
        lw: &mut Lowering<'_>,
        k: V,
        inputs: &[Option<Value>],
        p: &Program,
        index: usize,
    ) -> Result<Factor> {
        Ok(match k {
            V::Pub(v) => Factor::Public(sc(v)),
            V::Field(f) => Factor::Public(scalar_of_field(&f)),
            V::Com(c) => {
                let (v, _) = lw.opening(c)?;
                Factor::Secret(v, sc(c.v))
            }
            V::Scalar(input) => {
                let value = match inputs[input] {
                    Some(Value::Field(f)) => scalar_of_field(&f),
                    _ => Scalar::zero(), // the verifier's: unused
                };
                let s = match self.scalars.get(&input) {
                    Some(&s) => s,
                    None => {
                        let s = lw.secret("k", || value);
                        self.scalars.insert(input, s);
                        s
                    }
                };
                Factor::Secret(s, value)
            }
            V::Coord(..) => return Err(unsupported(p, index, "a point's coordinate as a scalar")),
        })
    }

    /// Output `k` shows point coordinates: for each point of which an output shows a
    /// coordinate, both must be shown (then the verifier knows the point); adds `Q − base =
    /// Σ sᵢ·Pᵢ` to the statement once per point. `shown[k]`: the coordinate each output shows
    /// (the prover's value, or the verifier's claim).
    pub(super) fn reveal(&self, lw: &mut Lowering<'_>, coords: &[(usize, bool, Base)]) -> Result<()> {
        // one coordinate given two values: no proof
        let points = by_point(coords).ok_or(Error::InvalidProof)?;
        for (at, xy) in points {
            let [Some(x), Some(y)] = xy else {
                return Err(Error::Unsupported(
                    "an output shows one coordinate of a point computed from private values, not both: \
                     the sigma back end does not support it"
                        .into(),
                ));
            };
            let pt = &self.list[at];
            let q = if lw.prover() {
                pt.value
            } else if lw.stand_in.is_some() {
                pt.base // counting only
            } else {
                Point::from_xy(x, y).map_err(|_| Error::InvalidProof)?
            };
            lw.point_terms += pt.terms.len() + 1;
            lw.require(q - pt.base, &pt.terms);
        }
        Ok(())
    }

    /// Asserted equalities of points computed from secrets with public points
    /// (`check(encrypt(m, pk, r) == ct)`), one `(point, is y, public coordinate)` per asserted
    /// coordinate `==`. Both coordinates of a point must be asserted (one alone would allow
    /// `−Q`); each point adds `Q − base = Σ sᵢ·Pᵢ` to the statement, as revealing does with `Q`
    /// given instead of shown. Coordinates that are no point of the subgroup, or one coordinate
    /// asserted equal to two values, make the check fail: no proof.
    pub(super) fn equal(&self, lw: &mut Lowering<'_>, coords: &[(usize, bool, Base)]) -> Result<()> {
        let fails = |lw: &Lowering<'_>, why: &str| {
            if lw.prover() {
                Error::Witness(format!("the program fails (check): {why}"))
            } else {
                Error::InvalidProof
            }
        };
        let Some(points) = by_point(coords) else {
            return Err(fails(lw, "a point's coordinate equal to two values"));
        };
        for (at, xy) in points {
            let [Some(x), Some(y)] = xy else {
                return Err(Error::Unsupported(
                    "`==` compares one coordinate of a point computed from private values with a public \
                     value: the sigma back end proves whole points equal (compare the points)"
                        .into(),
                ));
            };
            let pt = &self.list[at];
            let q = match Point::from_xy(x, y) {
                Ok(q) => q,
                Err(_) if lw.stand_in.is_some() => pt.base, // counting only
                Err(_) => return Err(fails(lw, "a point compared with coordinates of no subgroup point")),
            };
            if lw.prover() && lw.stand_in.is_none() && pt.value != q {
                return Err(fails(lw, "a computed point differs from the one given"));
            }
            lw.point_terms += pt.terms.len() + 1;
            lw.require(q - pt.base, &pt.terms);
        }
        Ok(())
    }

    /// The coordinate the prover shows for `V::Coord(at, y)`.
    pub(super) fn value_of(&self, at: usize, y: bool) -> Base {
        let v = self.list[at].value;
        if y {
            v.y()
        } else {
            v.x()
        }
    }
}

/// Per point, in first-seen order, the coordinates `coords` give it (`(point, is y, value)`
/// each); `None` if one coordinate is given two values.
fn by_point(coords: &[(usize, bool, Base)]) -> Option<Vec<(usize, [Option<Base>; 2])>> {
    let mut points: Vec<(usize, [Option<Base>; 2])> = Vec::new();
    let mut slot: HashMap<usize, usize> = HashMap::new();
    for &(at, y, f) in coords {
        let k = *slot.entry(at).or_insert_with(|| {
            points.push((at, [None, None]));
            points.len() - 1
        });
        match points[k].1[usize::from(y)] {
            Some(g) if g != f => return None,
            _ => points[k].1[usize::from(y)] = Some(f),
        }
    }
    Some(points)
}

fn times(lw: &Lowering<'_>, k: Factor, q: &Pt, p: &Program, index: usize) -> Result<Pt> {
    match k {
        Factor::Public(s) => Ok(Pt {
            base: q.base.mul_vartime(&s),
            terms: q.terms.iter().map(|&(t, b)| (t, b.mul_vartime(&s))).collect(),
            value: if lw.prover() { q.value.mul_ct(&s) } else { Point::identity() },
        }),
        Factor::Secret(t, s) if q.terms.is_empty() => Ok(Pt {
            base: Point::identity(),
            terms: vec![(t, q.base)],
            // the secret's multiple: constant time
            value: if lw.prover() { q.base.mul_ct(&s) } else { Point::identity() },
        }),
        Factor::Secret(..) => Err(unsupported(
            p,
            index,
            "a private scalar times a point computed from private values (not a linear relation)",
        )),
    }
}
