//! The bare `prio` 0.16.8 crate doing what `zeenot_prio::Vdaf` does per report, for the overhead
//! comparison (benches/prepare.rs, examples/prepare_timing.rs, benchmarks/prio_vdaf.py).
//!
//! `dap_prepare`: both aggregators prepare one report as DAP-09 has them (leader_initialized,
//! helper_initialized + evaluate, leader_continued) from the encoded public and input shares,
//! decoding them with the crate's codecs; the leader's state stays in memory (zeenot's wrapper
//! encodes it, since an aggregator stores it between requests).
//! `prepare_init`: one aggregator's `prepare_init` on already decoded shares (the crate's own
//! speed test).

use prio::codec::{Decode, Encode, ParameterizedDecode};
use prio::flp::Type;
use prio::topology::ping_pong::{PingPongContinuedValue, PingPongMessage, PingPongTopology};
use prio::vdaf::prio3::{Prio3, Prio3InputShare, Prio3PublicShare};
use prio::vdaf::xof::XofTurboShake128;
use prio::vdaf::{Aggregator, Client};

pub type P3<T> = Prio3<T, XofTurboShake128, 16>;

pub const VK: [u8; 16] = [3; 16];
pub const NONCE: [u8; 16] = [4; 16];

/// A sharded report: encoded public share and input shares.
pub struct Report {
    pub public_share: Vec<u8>,
    pub input_shares: Vec<Vec<u8>>,
}

pub fn shard<T: Type>(v: &P3<T>, m: &T::Measurement) -> Report {
    let (p, i) = v.shard(m, &NONCE).unwrap();
    Report {
        public_share: p.get_encoded().unwrap(),
        input_shares: i.iter().map(|s| s.get_encoded().unwrap()).collect(),
    }
}

/// Both aggregators prepare the report; returns the two encoded output shares.
pub fn dap_prepare<T: Type>(v: &P3<T>, r: &Report) -> (Vec<u8>, Vec<u8>) {
    let public = Prio3PublicShare::get_decoded_with_param(v, &r.public_share).unwrap();
    let leader_in = Prio3InputShare::get_decoded_with_param(&(v, 0), &r.input_shares[0]).unwrap();
    let (state, msg) = v.leader_initialized(&VK, &(), &NONCE, &public, &leader_in).unwrap();
    let msg = msg.get_encoded().unwrap();

    let public = Prio3PublicShare::get_decoded_with_param(v, &r.public_share).unwrap();
    let helper_in = Prio3InputShare::get_decoded_with_param(&(v, 1), &r.input_shares[1]).unwrap();
    let inbound = PingPongMessage::get_decoded(&msg).unwrap();
    let t = v.helper_initialized(&VK, &(), &NONCE, &public, &helper_in, &inbound).unwrap();
    let (helper_state, reply) = t.evaluate(v).unwrap();
    let reply = reply.get_encoded().unwrap();
    let helper_out = match helper_state {
        prio::topology::ping_pong::PingPongState::Finished(o) => o.get_encoded().unwrap(),
        _ => unreachable!(),
    };

    let inbound = PingPongMessage::get_decoded(&reply).unwrap();
    let leader_out = match v.leader_continued(state, &(), &inbound).unwrap() {
        PingPongContinuedValue::FinishedNoMessage { output_share } => output_share.get_encoded().unwrap(),
        _ => unreachable!(),
    };
    (leader_out, helper_out)
}

/// Decoded shares for [`prepare_init`].
pub struct Decoded<T: Type> {
    pub public: Prio3PublicShare<16>,
    pub leader: Prio3InputShare<T::Field, 16>,
}

pub fn decoded<T: Type>(v: &P3<T>, r: &Report) -> Decoded<T> {
    Decoded {
        public: Prio3PublicShare::get_decoded_with_param(v, &r.public_share).unwrap(),
        leader: Prio3InputShare::get_decoded_with_param(&(v, 0), &r.input_shares[0]).unwrap(),
    }
}

/// The leader's `prepare_init` on decoded shares, as the crate's own speed test measures it.
pub fn prepare_init<T: Type>(v: &P3<T>, d: &Decoded<T>) {
    let out = v.prepare_init(&VK, 0, &(), &NONCE, &d.public, &d.leader).unwrap();
    std::hint::black_box(out);
}
