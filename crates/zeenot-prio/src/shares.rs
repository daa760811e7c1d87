//! An aggregator's per-report DAP-09 work in one native call per request or job, without the
//! JSON round trip of [`crate::dap`]: splitting uploaded `Report`s into the parts the leader
//! stores, and opening input shares (the `InputShareAad`, HPKE, the `PlaintextInputShare`).
//!
//! The encodings are `janus_messages`' and the HPKE is [`crate::hpke`]'s, as everywhere in this
//! crate. A report that fails is answered with DAP's name of the failure, never a panic and never
//! an error of the whole call: one bad report in a batch or a job does not refuse the others.

use crate::hpke::{self, Label};
use crate::{bounded, Error, Result};
use janus_messages::codec::{Decode, Encode};
use janus_messages::query_type::TimeInterval;
use janus_messages::{
    AggregationJobInitializeReq, HpkeCiphertext, HpkeConfig, InputShareAad, PartialBatchSelector,
    PlaintextInputShare, PrepareInit, Report, ReportId, ReportMetadata, ReportShare, Role, TaskId, Time,
};
use prio::topology::ping_pong::PingPongMessage;

/// An uploaded `Report`, split: its id, time, public share, and both input shares as encoded
/// `HpkeCiphertext`s, with the config id the leader's is sealed under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportParts {
    pub report_id: [u8; 16],
    pub time: u64,
    pub public_share: Vec<u8>,
    pub leader_ciphertext: Vec<u8>,
    pub helper_ciphertext: Vec<u8>,
    pub leader_config_id: u8,
}

fn encoded<T: Encode>(t: &T) -> Result<Vec<u8>> {
    t.get_encoded().map_err(|e| Error::Input(format!("cannot encode: {e}")))
}

/// Decode a whole `Report` (the bytes of DAP's upload) and split it.
pub fn split_report(bytes: &[u8]) -> Result<ReportParts> {
    let report = Report::get_decoded(bounded("Report", bytes)?)
        .map_err(|e| Error::Decode { what: "DAP message", msg: format!("Report: {e}") })?;
    let leader = report.leader_encrypted_input_share();
    Ok(ReportParts {
        report_id: *report.metadata().id().as_ref(),
        time: report.metadata().time().as_seconds_since_epoch(),
        public_share: report.public_share().to_vec(),
        leader_ciphertext: encoded(leader)?,
        helper_ciphertext: encoded(report.helper_encrypted_input_share())?,
        leader_config_id: u8::from(*leader.config_id()),
    })
}

/// The report an input share belongs to, as its `InputShareAad` names it.
pub struct ShareOf<'a> {
    pub report_id: &'a [u8],
    pub time: u64,
    pub public_share: &'a [u8],
    pub ciphertext: &'a [u8],
}

/// An aggregator's HPKE key: its encoded `HpkeConfig` and private key.
pub struct Key<'a> {
    pub config: &'a [u8],
    pub private_key: &'a [u8],
}

/// Open the client's input share sealed to `recipient` with whichever of `keys` its ciphertext
/// names, and return the VDAF input share (the `PlaintextInputShare`'s payload). A failure is
/// DAP-09's `PrepareError` name: `invalid_message` (a ciphertext or plaintext that does not
/// decode, or an extension: DAP-09 defines none), `hpke_unknown_config_id`,
/// `hpke_decrypt_error`.
pub fn open_input_share(
    keys: &[Key<'_>],
    recipient: Role,
    task_id: &TaskId,
    share: &ShareOf<'_>,
) -> std::result::Result<Vec<u8>, &'static str> {
    let ct = bounded("HPKE ciphertext", share.ciphertext)
        .ok()
        .and_then(|b| HpkeCiphertext::get_decoded(b).ok())
        .ok_or("invalid_message")?;
    let key = keys
        .iter()
        .find(|k| HpkeConfig::get_decoded(k.config).is_ok_and(|c| c.id() == ct.config_id()))
        .ok_or("hpke_unknown_config_id")?;
    let report_id: [u8; 16] = share.report_id.try_into().map_err(|_| "invalid_message")?;
    let metadata = ReportMetadata::new(ReportId::from(report_id), Time::from_seconds_since_epoch(share.time));
    let aad = InputShareAad::new(*task_id, metadata, share.public_share.to_vec())
        .get_encoded()
        .map_err(|_| "invalid_message")?;
    let info = hpke::application_info(Label::InputShare, Role::Client, recipient);
    let plain = hpke::open(key.config, key.private_key, &info, share.ciphertext, &aad)
        .map_err(|_| "hpke_decrypt_error")?;
    let plain = PlaintextInputShare::get_decoded(&plain).map_err(|_| "invalid_message")?;
    if !plain.extensions().is_empty() {
        return Err("invalid_message");
    }
    Ok(plain.payload().to_vec())
}

/// One report of a time-interval task's `AggregationJobInitializeReq`: its id, time, public
/// share, the helper's input share (an encoded `HpkeCiphertext`) and the leader's encoded
/// ping-pong message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitParts {
    pub report_id: [u8; 16],
    pub time: u64,
    pub public_share: Vec<u8>,
    pub ciphertext: Vec<u8>,
    pub message: Vec<u8>,
}

fn input(what: &'static str) -> impl FnOnce(prio::codec::CodecError) -> Error {
    move |e| Error::Input(format!("{what}: {e}"))
}

/// The leader's `AggregationJobInitializeReq` (time interval, the empty aggregation parameter
/// of Prio3) for these reports.
pub fn encode_init_req(inits: &[InitParts]) -> Result<Vec<u8>> {
    let prepare_inits = inits
        .iter()
        .map(|p| {
            let ct = HpkeCiphertext::get_decoded(&p.ciphertext).map_err(input("an HPKE ciphertext"))?;
            let message = PingPongMessage::get_decoded(&p.message).map_err(input("a ping-pong message"))?;
            let metadata =
                ReportMetadata::new(ReportId::from(p.report_id), Time::from_seconds_since_epoch(p.time));
            Ok(PrepareInit::new(ReportShare::new(metadata, p.public_share.clone(), ct), message))
        })
        .collect::<Result<Vec<_>>>()?;
    encoded(&AggregationJobInitializeReq::<TimeInterval>::new(
        Vec::new(),
        PartialBatchSelector::new_time_interval(),
        prepare_inits,
    ))
}

/// The helper's reading of a time-interval `AggregationJobInitializeReq`: the aggregation
/// parameter and each report's parts.
pub fn decode_init_req(bytes: &[u8]) -> Result<(Vec<u8>, Vec<InitParts>)> {
    let req =
        AggregationJobInitializeReq::<TimeInterval>::get_decoded(bounded("DAP message", bytes)?).map_err(
            |e| Error::Decode { what: "DAP message", msg: format!("AggregationJobInitializeReq: {e}") },
        )?;
    let inits = req
        .prepare_inits()
        .iter()
        .map(|p| {
            let share = p.report_share();
            Ok(InitParts {
                report_id: *share.metadata().id().as_ref(),
                time: share.metadata().time().as_seconds_since_epoch(),
                public_share: share.public_share().to_vec(),
                ciphertext: encoded(share.encrypted_input_share())?,
                message: encoded(p.message())?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((req.aggregation_parameter().to_vec(), inits))
}

/// A 32-byte task id.
pub fn task_id(bytes: &[u8]) -> Result<TaskId> {
    let raw: [u8; 32] =
        bytes.try_into().map_err(|_| Error::Input(format!("a task id is 32 bytes, not {}", bytes.len())))?;
    Ok(TaskId::from(raw))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dap::{self, QueryType};
    use serde_json::json;

    fn sealed(config: &[u8], recipient: Role, payload: &[u8], aad: &[u8], extensions: bool) -> Vec<u8> {
        let exts = if extensions { json!([{"type": 0, "data": "00"}]) } else { json!([]) };
        let plain = json!({"extensions": exts, "payload": hex::encode(payload)});
        let plain = dap::encode("PlaintextInputShare", &plain, QueryType::TimeInterval).unwrap();
        let info = hpke::application_info(Label::InputShare, Role::Client, recipient);
        hpke::seal(config, &info, &plain, aad).unwrap()
    }

    #[test]
    fn split_and_open_agree_with_the_json_codec() {
        let (lc, lk) = hpke::generate(1, 0x20, 1, 1).unwrap();
        let (hc, _) = hpke::generate(7, 0x20, 1, 1).unwrap();
        let (tid, rid, time, public) = ([5u8; 32], [9u8; 16], 3600u64, vec![1u8, 2, 3]);
        let meta = ReportMetadata::new(ReportId::from(rid), Time::from_seconds_since_epoch(time));
        let aad = InputShareAad::new(TaskId::from(tid), meta, public.clone()).get_encoded().unwrap();
        let l = sealed(&lc, Role::Leader, b"leader share", &aad, false);
        let h = sealed(&hc, Role::Helper, b"helper share", &aad, false);
        let ct = |b: &[u8]| dap::decode("HpkeCiphertext", b, QueryType::TimeInterval).unwrap();
        let report = json!({
            "metadata": {"report_id": hex::encode(rid), "time": time},
            "public_share": hex::encode(&public),
            "leader_encrypted_input_share": ct(&l),
            "helper_encrypted_input_share": ct(&h),
        });
        let bytes = dap::encode("Report", &report, QueryType::TimeInterval).unwrap();
        let parts = split_report(&bytes).unwrap();
        assert_eq!(
            parts,
            ReportParts {
                report_id: rid,
                time,
                public_share: public.clone(),
                leader_ciphertext: l.clone(),
                helper_ciphertext: h.clone(),
                leader_config_id: 1,
            }
        );
        assert!(split_report(&bytes[..bytes.len() - 1]).is_err());
        assert!(split_report(&[bytes.as_slice(), &[0]].concat()).is_err());

        let keys = [Key { config: &lc, private_key: &lk }];
        fn share<'a>(rid: &'a [u8], time: u64, public: &'a [u8], ciphertext: &'a [u8]) -> ShareOf<'a> {
            ShareOf { report_id: rid, time, public_share: public, ciphertext }
        }
        let of = |ciphertext| share(&rid, time, &public, ciphertext);
        let open = |s: &ShareOf<'_>| open_input_share(&keys, Role::Leader, &TaskId::from(tid), s);
        assert_eq!(open(&of(&l)).unwrap(), b"leader share");
        assert_eq!(open(&of(&h)), Err("hpke_unknown_config_id"));
        assert_eq!(open(&of(&l[..l.len() - 1])), Err("invalid_message"));
        let mut flipped = l.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(open(&of(&flipped)), Err("hpke_decrypt_error"));
        let other_time = share(&rid, time + 1, &public, &l);
        assert_eq!(open(&other_time), Err("hpke_decrypt_error")); // the AAD binds the metadata
        let with_ext = sealed(&lc, Role::Leader, b"x", &aad, true);
        assert_eq!(open(&of(&with_ext)), Err("invalid_message"));
        let to_helper = sealed(&lc, Role::Helper, b"x", &aad, false);
        assert_eq!(open(&of(&to_helper)), Err("hpke_decrypt_error")); // the info binds the role
        assert!(task_id(&[0; 31]).is_err());
    }

    #[test]
    fn init_requests_agree_with_the_json_codec() {
        let (config, _) = hpke::generate(1, 0x20, 1, 1).unwrap();
        let info = hpke::application_info(Label::InputShare, Role::Client, Role::Helper);
        let ct = hpke::seal(&config, &info, b"share", b"aad").unwrap();
        let message = dap::encode(
            "PingPongMessage",
            &json!({"type": "initialize", "prep_share": "0102"}),
            QueryType::TimeInterval,
        )
        .unwrap();
        let inits: Vec<InitParts> = (0..3u8)
            .map(|i| InitParts {
                report_id: [i; 16],
                time: 3600 * u64::from(i),
                public_share: vec![i; usize::from(i)],
                ciphertext: ct.clone(),
                message: message.clone(),
            })
            .collect();
        let bytes = encode_init_req(&inits).unwrap();
        let q = QueryType::TimeInterval;
        let json = dap::decode("AggregationJobInitializeReq", &bytes, q).unwrap();
        assert_eq!(dap::encode("AggregationJobInitializeReq", &json, q).unwrap(), bytes);
        assert_eq!(json["prepare_inits"].as_array().unwrap().len(), 3);
        assert_eq!(json["prepare_inits"][2]["report_share"]["metadata"]["time"], 7200);
        assert_eq!(decode_init_req(&bytes).unwrap(), (Vec::new(), inits.clone()));
        assert!(decode_init_req(&bytes[..bytes.len() - 1]).is_err());
        let bad = InitParts { message: vec![9], ..inits[0].clone() };
        assert!(encode_init_req(&[bad]).is_err());
    }
}
