//! Prio3 with two aggregators through the `prio` crate's own API, bytes in and bytes out.
//!
//! Each operation decodes its inputs with the crate's `Decode`/`ParameterizedDecode`, calls the
//! crate (`shard`, `prepare_init`, `prepare_shares_to_prepare_message`, `prepare_next`,
//! `aggregate`, `unshard`, and DAP-09's ping-pong topology), and encodes its outputs with the
//! crate's `Encode`. Encoded preparation states are what an aggregator stores between requests;
//! they hold a measurement share, so they are secret.

use crate::afe::Afe;
use crate::kind::VdafKind;
use crate::{bounded, decode_err, Error, Result};
use prio::codec::{Encode, ParameterizedDecode};
use prio::flp::Type;
use prio::topology::ping_pong::{
    PingPongContinuedValue, PingPongError, PingPongMessage, PingPongState, PingPongTopology,
};
use prio::vdaf::prio3::{
    Prio3, Prio3Count, Prio3Histogram, Prio3InputShare, Prio3PrepareMessage, Prio3PrepareShare,
    Prio3PrepareState, Prio3PublicShare, Prio3Sum, Prio3SumVec,
};
use prio::vdaf::xof::XofTurboShake128;
use prio::vdaf::{
    Aggregatable, AggregateShare, Aggregator, Client, Collector, OutputShare, PrepareTransition, VdafError,
};

/// Bytes of a verification key (every Prio3 instance here: a 16-byte XOF seed).
pub const VERIFY_KEY_SIZE: usize = 16;
/// Bytes of a report nonce (DAP-09: the report ID).
pub const NONCE_SIZE: usize = 16;
/// Aggregators: a leader (id 0) and a helper (id 1), as DAP has. [`Vdaf::with_aggregators`]
/// takes more (the VDAF-08 test vectors have three), outside DAP's ping-pong operations.
pub const NUM_AGGREGATORS: usize = 2;
/// The most aggregators [`Vdaf::with_aggregators`] takes (the crate's own limit).
pub const MAX_AGGREGATORS: usize = 255;
/// The most output or aggregate shares one [`Vdaf::aggregate`] or [`Vdaf::merge`] call takes.
pub const MAX_SHARES_PER_CALL: usize = 1 << 20;

type P3<T> = Prio3<T, XofTurboShake128, 16>;

/// A measurement, one variant per instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Measurement {
    /// Prio3Count: 0 or 1.
    Count(bool),
    /// Prio3Sum: an integer in `[0, 2^bits)`.
    Sum(u128),
    /// Prio3SumVec: `length` integers, each in `[0, 2^bits)`.
    SumVec(Vec<u128>),
    /// Prio3Histogram: the index of the bucket, in `[0, length)`.
    Histogram(usize),
    /// An AFE ([`crate::afe`]): its integers (`[x]`, or `[x₁, …, x_d, y]` for regression).
    Afe(Vec<u64>),
}

/// The collector's result, one variant per instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AggregateResult {
    Count(u64),
    Sum(u128),
    SumVec(Vec<u128>),
    Histogram(Vec<u128>),
    /// An AFE's sums (its truncated encoding summed), for `zeenot.prio.afe` to decode.
    Afe(Vec<u128>),
}

/// A client's report for the aggregators: the public share and one input share per aggregator
/// (leader first), each encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sharded {
    pub public_share: Vec<u8>,
    pub input_shares: Vec<Vec<u8>>,
}

/// A Prio3 instance built by the crate's `Prio3::new_*` (or `Prio3::new` over an [`Afe`]) for two
/// aggregators.
#[derive(Clone, Debug)]
pub struct Vdaf {
    kind: VdafKind,
    aggregators: usize,
    inner: Inner,
}

#[derive(Clone, Debug)]
enum Inner {
    Count(Prio3Count),
    Sum(Prio3Sum),
    SumVec(Prio3SumVec),
    Histogram(Prio3Histogram),
    Afe(P3<Afe>),
}

/// Run `$body` with `$v` bound to the concrete `Prio3` instance.
macro_rules! with_vdaf {
    ($self:expr, $v:ident => $body:expr) => {
        match &$self.inner {
            Inner::Count($v) => $body,
            Inner::Sum($v) => $body,
            Inner::SumVec($v) => $body,
            Inner::Histogram($v) => $body,
            Inner::Afe($v) => $body,
        }
    };
}

fn vdaf_err(e: VdafError) -> Error {
    Error::Rejected(e.to_string())
}

fn ping_pong_err(e: PingPongError) -> Error {
    match e {
        PingPongError::CodecPrepShare(c) => Error::Decode { what: "prepare share", msg: c.to_string() },
        PingPongError::CodecPrepMessage(c) => Error::Decode { what: "prepare message", msg: c.to_string() },
        e @ (PingPongError::HostStateMismatch { .. } | PingPongError::PeerMessageMismatch { .. }) => {
            Error::Decode { what: "ping-pong message", msg: e.to_string() }
        }
        other => Error::Rejected(other.to_string()),
    }
}

fn array<const N: usize>(what: &str, bytes: &[u8]) -> Result<[u8; N]> {
    bytes.try_into().map_err(|_| Error::Input(format!("{what} must be {N} bytes, got {}", bytes.len())))
}

fn encode<E: Encode>(what: &'static str, e: &E) -> Result<Vec<u8>> {
    // Encoding a value the crate built does not fail; a failure is still an error, not a panic.
    e.get_encoded().map_err(|c| Error::Rejected(format!("encoding the {what} failed: {c}")))
}

fn ping_pong_message(bytes: &[u8]) -> Result<PingPongMessage> {
    use prio::codec::Decode;
    PingPongMessage::get_decoded(bounded("ping-pong message", bytes)?)
        .map_err(decode_err("ping-pong message"))
}

// ---- generic operations over one Prio3 type -----------------------------------------------

fn public_share<T: Type>(v: &P3<T>, b: &[u8]) -> Result<Prio3PublicShare<16>> {
    Prio3PublicShare::get_decoded_with_param(v, bounded("public share", b)?)
        .map_err(decode_err("public share"))
}

fn input_share<T: Type>(v: &P3<T>, id: usize, b: &[u8]) -> Result<Prio3InputShare<T::Field, 16>> {
    Prio3InputShare::get_decoded_with_param(&(v, id), bounded("input share", b)?)
        .map_err(decode_err("input share"))
}

fn prep_state<T: Type>(v: &P3<T>, id: usize, b: &[u8]) -> Result<Prio3PrepareState<T::Field, 16>> {
    Prio3PrepareState::get_decoded_with_param(&(v, id), bounded("preparation state", b)?)
        .map_err(decode_err("preparation state"))
}

fn output_share<T: Type>(v: &P3<T>, b: &[u8]) -> Result<OutputShare<T::Field>> {
    OutputShare::get_decoded_with_param(&(v, &()), bounded("output share", b)?)
        .map_err(decode_err("output share"))
}

fn aggregate_share<T: Type>(v: &P3<T>, b: &[u8]) -> Result<AggregateShare<T::Field>> {
    AggregateShare::get_decoded_with_param(&(v, &()), bounded("aggregate share", b)?)
        .map_err(decode_err("aggregate share"))
}

fn shard_g<T: Type>(v: &P3<T>, m: &T::Measurement, nonce: &[u8; 16]) -> Result<Sharded> {
    let (public, inputs) = v.shard(m, nonce).map_err(|e| Error::Input(e.to_string()))?;
    Ok(Sharded {
        public_share: encode("public share", &public)?,
        input_shares: inputs.iter().map(|s| encode("input share", s)).collect::<Result<_>>()?,
    })
}

struct PrepInit<'a> {
    verify_key: [u8; 16],
    agg_id: usize,
    nonce: [u8; 16],
    public_share: &'a [u8],
    input_share: &'a [u8],
}

fn prepare_init_g<T: Type>(v: &P3<T>, p: &PrepInit<'_>) -> Result<(Vec<u8>, Vec<u8>)> {
    let public = public_share(v, p.public_share)?;
    let input = input_share(v, p.agg_id, p.input_share)?;
    let (state, share) =
        v.prepare_init(&p.verify_key, p.agg_id, &(), &p.nonce, &public, &input).map_err(vdaf_err)?;
    Ok((encode("preparation state", &state)?, encode("prepare share", &share)?))
}

fn prep_message_g<T: Type>(v: &P3<T>, id: usize, state: &[u8], shares: &[&[u8]]) -> Result<Vec<u8>> {
    let state = prep_state(v, id, state)?;
    let shares = shares
        .iter()
        .map(|b| {
            Prio3PrepareShare::get_decoded_with_param(&state, bounded("prepare share", b)?)
                .map_err(decode_err("prepare share"))
        })
        .collect::<Result<Vec<_>>>()?;
    let message = v.prepare_shares_to_prepare_message(&(), shares).map_err(vdaf_err)?;
    encode("prepare message", &message)
}

fn prepare_next_g<T: Type>(v: &P3<T>, id: usize, state: &[u8], message: &[u8]) -> Result<Vec<u8>> {
    let state = prep_state(v, id, state)?;
    let message = Prio3PrepareMessage::get_decoded_with_param(&state, bounded("prepare message", message)?)
        .map_err(decode_err("prepare message"))?;
    match v.prepare_next(state, message).map_err(vdaf_err)? {
        PrepareTransition::Finish(out) => encode("output share", &out),
        PrepareTransition::Continue(..) => {
            Err(Error::Rejected("Prio3 prepares in one round; the crate asked for another".into()))
        }
    }
}

fn aggregate_g<T: Type>(v: &P3<T>, outs: &[&[u8]]) -> Result<Vec<u8>> {
    let outs = outs.iter().map(|b| output_share(v, b)).collect::<Result<Vec<_>>>()?;
    encode("aggregate share", &v.aggregate(&(), outs).map_err(vdaf_err)?)
}

fn merge_g<T: Type>(v: &P3<T>, shares: &[&[u8]]) -> Result<Vec<u8>> {
    // The crate's zero: the aggregate of no output shares.
    let mut total = v.aggregate(&(), []).map_err(vdaf_err)?;
    for b in shares {
        total.merge(&aggregate_share(v, b)?).map_err(vdaf_err)?;
    }
    encode("aggregate share", &total)
}

fn unshard_g<T: Type>(v: &P3<T>, shares: &[&[u8]], n: usize) -> Result<T::AggregateResult> {
    let shares = shares.iter().map(|b| aggregate_share(v, b)).collect::<Result<Vec<_>>>()?;
    v.unshard(&(), shares, n).map_err(vdaf_err)
}

fn leader_init_g<T: Type>(v: &P3<T>, p: &PrepInit<'_>) -> Result<(Vec<u8>, Vec<u8>)> {
    let public = public_share(v, p.public_share)?;
    let input = input_share(v, 0, p.input_share)?;
    let (state, message) =
        v.leader_initialized(&p.verify_key, &(), &p.nonce, &public, &input).map_err(ping_pong_err)?;
    match state {
        PingPongState::Continued(s) => Ok((encode("preparation state", &s)?, encode("message", &message)?)),
        PingPongState::Finished(_) => {
            Err(Error::Rejected("the leader finished before the helper spoke".into()))
        }
    }
}

fn helper_init_g<T: Type>(v: &P3<T>, p: &PrepInit<'_>, inbound: &[u8]) -> Result<(Vec<u8>, Vec<u8>)> {
    let public = public_share(v, p.public_share)?;
    let input = input_share(v, 1, p.input_share)?;
    let inbound = ping_pong_message(inbound)?;
    let transition = v
        .helper_initialized(&p.verify_key, &(), &p.nonce, &public, &input, &inbound)
        .map_err(ping_pong_err)?;
    match transition.evaluate(v).map_err(ping_pong_err)? {
        (PingPongState::Finished(out), message) => {
            Ok((encode("output share", &out)?, encode("message", &message)?))
        }
        (PingPongState::Continued(_), _) => {
            Err(Error::Rejected("Prio3 prepares in one round; the crate asked for another".into()))
        }
    }
}

fn leader_continued_g<T: Type>(v: &P3<T>, state: &[u8], inbound: &[u8]) -> Result<Vec<u8>> {
    let state = PingPongState::Continued(prep_state(v, 0, state)?);
    let inbound = ping_pong_message(inbound)?;
    match v.leader_continued(state, &(), &inbound).map_err(ping_pong_err)? {
        PingPongContinuedValue::FinishedNoMessage { output_share } => encode("output share", &output_share),
        PingPongContinuedValue::WithMessage { .. } => {
            Err(Error::Rejected("Prio3 prepares in one round; the crate asked for another".into()))
        }
    }
}

// ---- the typed front ------------------------------------------------------------------------

impl Vdaf {
    /// The crate's instance for `kind`, with two aggregators.
    pub fn new(kind: VdafKind) -> Result<Self> {
        Self::with_aggregators(kind, NUM_AGGREGATORS)
    }

    /// The crate's instance for `kind` with `aggregators` (2 to 255) aggregators.
    pub fn with_aggregators(kind: VdafKind, aggregators: usize) -> Result<Self> {
        let err = |e: VdafError| Error::Description(e.to_string());
        if !(2..=MAX_AGGREGATORS).contains(&aggregators) {
            return Err(Error::Description(format!(
                "Prio3 takes 2 to {MAX_AGGREGATORS} aggregators, not {aggregators}"
            )));
        }
        let n = aggregators as u8;
        let inner = match kind {
            VdafKind::Prio3Count => Inner::Count(Prio3::new_count(n).map_err(err)?),
            VdafKind::Prio3Sum { bits } => Inner::Sum(Prio3::new_sum(n, bits).map_err(err)?),
            VdafKind::Prio3SumVec { bits, length, chunk_length } => {
                Inner::SumVec(Prio3::new_sum_vec(n, bits, length, chunk_length).map_err(err)?)
            }
            VdafKind::Prio3Histogram { length, chunk_length } => {
                Inner::Histogram(Prio3::new_histogram(n, length, chunk_length).map_err(err)?)
            }
            // One proof over Field128 (as the crate's SumVec): soundness error ≈ 2⁻¹²⁰.
            VdafKind::Afe(a) => Inner::Afe(Prio3::new(n, 1, a.algorithm_id(), Afe::new(a)?).map_err(err)?),
        };
        Ok(Vdaf { kind, aggregators, inner })
    }

    /// From a JSON description ([`VdafKind::from_json`]).
    pub fn from_json(description: &str) -> Result<Self> {
        Self::new(VdafKind::from_json(description)?)
    }

    pub fn kind(&self) -> VdafKind {
        self.kind
    }

    pub fn num_aggregators(&self) -> usize {
        self.aggregators
    }

    /// Client: split `measurement` into a public share and two input shares (fresh randomness
    /// from the OS, as the crate's `shard` draws it).
    pub fn shard(&self, measurement: &Measurement, nonce: &[u8]) -> Result<Sharded> {
        let nonce = array::<NONCE_SIZE>("nonce", nonce)?;
        let mismatch =
            || Err(Error::Input(format!("a {:?} measurement for {}", measurement, self.kind.to_json())));
        match (&self.inner, measurement) {
            (Inner::Count(v), Measurement::Count(b)) => shard_g(v, b, &nonce),
            (Inner::Sum(v), Measurement::Sum(x)) => shard_g(v, x, &nonce),
            (Inner::SumVec(v), Measurement::SumVec(xs)) => shard_g(v, xs, &nonce),
            (Inner::Histogram(v), Measurement::Histogram(i)) => shard_g(v, i, &nonce),
            (Inner::Afe(v), Measurement::Afe(xs)) => shard_g(v, xs, &nonce),
            _ => mismatch(),
        }
    }

    /// Aggregator `agg_id`: start preparing a report. Returns the encoded preparation state
    /// (secret: keep it for [`Vdaf::prepare_next`]) and this aggregator's prepare share.
    pub fn prepare_init(
        &self,
        verify_key: &[u8],
        agg_id: usize,
        nonce: &[u8],
        public_share: &[u8],
        input_share: &[u8],
    ) -> Result<(Vec<u8>, Vec<u8>)> {
        let p = self.prep_init(verify_key, agg_id, nonce, public_share, input_share)?;
        with_vdaf!(self, v => prepare_init_g(v, &p))
    }

    /// Combine every aggregator's prepare share (leader first) into the prepare message; fails
    /// ([`Error::Rejected`]) when the validity proof does not verify. `state` is the calling
    /// aggregator's (the shares decode against it).
    pub fn prepare_shares_to_prepare_message(
        &self,
        agg_id: usize,
        state: &[u8],
        prep_shares: &[&[u8]],
    ) -> Result<Vec<u8>> {
        let id = self.agg_id(agg_id)?;
        self.one_per_aggregator("prepare shares", prep_shares.len())?;
        with_vdaf!(self, v => prep_message_g(v, id, state, prep_shares))
    }

    /// Finish preparing: the encoded output share (Prio3 has one round).
    pub fn prepare_next(&self, agg_id: usize, state: &[u8], prep_message: &[u8]) -> Result<Vec<u8>> {
        let id = self.agg_id(agg_id)?;
        with_vdaf!(self, v => prepare_next_g(v, id, state, prep_message))
    }

    /// Sum output shares into an aggregate share.
    pub fn aggregate(&self, output_shares: &[&[u8]]) -> Result<Vec<u8>> {
        self.count_shares(output_shares.len())?;
        with_vdaf!(self, v => aggregate_g(v, output_shares))
    }

    /// Sum aggregate shares (of one aggregator) into one; no shares give the zero share.
    pub fn merge(&self, aggregate_shares: &[&[u8]]) -> Result<Vec<u8>> {
        self.count_shares(aggregate_shares.len())?;
        with_vdaf!(self, v => merge_g(v, aggregate_shares))
    }

    /// Collector: the result from every aggregator's aggregate share (leader first) over
    /// `num_measurements` reports.
    pub fn unshard(&self, aggregate_shares: &[&[u8]], num_measurements: usize) -> Result<AggregateResult> {
        self.one_per_aggregator("aggregate shares", aggregate_shares.len())?;
        Ok(match &self.inner {
            Inner::Count(v) => AggregateResult::Count(unshard_g(v, aggregate_shares, num_measurements)?),
            Inner::Sum(v) => AggregateResult::Sum(unshard_g(v, aggregate_shares, num_measurements)?),
            Inner::SumVec(v) => AggregateResult::SumVec(unshard_g(v, aggregate_shares, num_measurements)?),
            Inner::Histogram(v) => {
                AggregateResult::Histogram(unshard_g(v, aggregate_shares, num_measurements)?)
            }
            Inner::Afe(v) => AggregateResult::Afe(unshard_g(v, aggregate_shares, num_measurements)?),
        })
    }

    /// DAP-09 leader, first step: the encoded preparation state (secret, for
    /// [`Vdaf::leader_continued`]) and the ping-pong message for the helper (`PrepareInit`).
    pub fn leader_initialized(
        &self,
        verify_key: &[u8],
        nonce: &[u8],
        public_share: &[u8],
        input_share: &[u8],
    ) -> Result<(Vec<u8>, Vec<u8>)> {
        self.two_party()?;
        let p = self.prep_init(verify_key, 0, nonce, public_share, input_share)?;
        with_vdaf!(self, v => leader_init_g(v, &p))
    }

    /// DAP-09 helper: from the leader's ping-pong message, the helper's encoded output share and
    /// its ping-pong reply (`PrepareResp` continue, carrying the prepare message). Fails with
    /// [`Error::Rejected`] when the report's proof does not verify.
    pub fn helper_initialized(
        &self,
        verify_key: &[u8],
        nonce: &[u8],
        public_share: &[u8],
        input_share: &[u8],
        inbound: &[u8],
    ) -> Result<(Vec<u8>, Vec<u8>)> {
        self.two_party()?;
        let p = self.prep_init(verify_key, 1, nonce, public_share, input_share)?;
        with_vdaf!(self, v => helper_init_g(v, &p, inbound))
    }

    /// DAP-09 leader, last step: from the leader's state and the helper's reply, the leader's
    /// encoded output share.
    pub fn leader_continued(&self, state: &[u8], inbound: &[u8]) -> Result<Vec<u8>> {
        self.two_party()?;
        with_vdaf!(self, v => leader_continued_g(v, state, inbound))
    }

    fn prep_init<'a>(
        &self,
        verify_key: &[u8],
        agg_id: usize,
        nonce: &[u8],
        public_share: &'a [u8],
        input_share: &'a [u8],
    ) -> Result<PrepInit<'a>> {
        Ok(PrepInit {
            verify_key: array::<VERIFY_KEY_SIZE>("verify key", verify_key)?,
            agg_id: self.agg_id(agg_id)?,
            nonce: array::<NONCE_SIZE>("nonce", nonce)?,
            public_share,
            input_share,
        })
    }

    fn agg_id(&self, id: usize) -> Result<usize> {
        if id < self.aggregators {
            Ok(id)
        } else {
            Err(Error::Input(format!(
                "aggregator id must be below {} (0 is the leader), got {id}",
                self.aggregators
            )))
        }
    }

    fn one_per_aggregator(&self, what: &str, n: usize) -> Result<()> {
        if n != self.aggregators {
            return Err(Error::Input(format!("{n} {what}, one per aggregator ({})", self.aggregators)));
        }
        Ok(())
    }

    /// DAP's ping-pong topology has exactly a leader and a helper.
    fn two_party(&self) -> Result<()> {
        if self.aggregators != NUM_AGGREGATORS {
            return Err(Error::Input(format!(
                "DAP's ping-pong preparation has two aggregators, this instance {}",
                self.aggregators
            )));
        }
        Ok(())
    }

    fn count_shares(&self, n: usize) -> Result<()> {
        if n > MAX_SHARES_PER_CALL {
            return Err(Error::Input(format!("{n} shares in one call, over {MAX_SHARES_PER_CALL}")));
        }
        Ok(())
    }
}
