//! DAP-09 messages as `janus_messages` 0.7.145 encodes them, to and from JSON values.
//!
//! The wire encoding is entirely the crate's (`Encode`/`Decode`); this module only maps each
//! message's fields to a JSON object (byte strings as lowercase hex, integers as numbers,
//! enumerations as names) and back. Objects are strict: a missing or unknown key is an error.
//! Messages generic over the query type take it as an argument (`time_interval` or
//! `fixed_size`), as a DAP task fixes it.
//!
//! Shapes (`bytes` = hex string):
//! - `HpkeConfig`: `{id, kem_id, kdf_id, aead_id, public_key: bytes}`; `HpkeConfigList`:
//!   `{configs: [HpkeConfig]}`; `HpkeCiphertext`: `{config_id, encapsulated_key, payload}`
//! - `ReportMetadata`: `{report_id: bytes(16), time}`; `Report`: `{metadata, public_share,
//!   leader_encrypted_input_share, helper_encrypted_input_share}`
//! - `PlaintextInputShare`: `{extensions: [{type, data}], payload}`; `InputShareAad`:
//!   `{task_id: bytes(32), metadata, public_share}`
//! - `Interval`: `{start, duration}`; `Query`: `{batch_interval}` (time interval) or
//!   `{type: "by_batch_id", batch_id}` / `{type: "current_batch"}` (fixed size);
//!   `PartialBatchSelector`: `{}` or `{batch_id}`; `BatchSelector`: `{batch_interval}` or
//!   `{batch_id}`
//! - `CollectionReq`: `{query, aggregation_parameter}`; `Collection`: `{partial_batch_selector,
//!   report_count, interval, leader_encrypted_agg_share, helper_encrypted_agg_share}`
//! - `ReportShare`: `{metadata, public_share, encrypted_input_share}`; `PrepareInit`:
//!   `{report_share, message: bytes}` where `message` is an encoded ping-pong message
//!   (`PingPongMessage`: `{type: "initialize", prep_share}` | `{type: "continue", prep_msg,
//!   prep_share}` | `{type: "finish", prep_msg}`)
//! - `PrepareResp`: `{report_id, result}` with `result` `{type: "continue", message}` |
//!   `{type: "finished"}` | `{type: "reject", error}` (`error` one of [`PREPARE_ERRORS`]);
//!   `PrepareContinue`: `{report_id, message}`
//! - `AggregationJobInitializeReq`: `{aggregation_parameter, partial_batch_selector,
//!   prepare_inits}`; `AggregationJobContinueReq`: `{step, prepare_continues}`;
//!   `AggregationJobResp`: `{prepare_resps}`
//! - `AggregateShareReq`: `{batch_selector, aggregation_parameter, report_count, checksum:
//!   bytes(32)}`; `AggregateShare`: `{encrypted_aggregate_share}`; `AggregateShareAad`:
//!   `{task_id, aggregation_parameter, batch_selector}`

use crate::{bounded, Error, Result};
use janus_messages::codec::{Decode, Encode};
use janus_messages::query_type::{FixedSize, QueryType as JanusQueryType, TimeInterval};
use janus_messages::{
    AggregateShare, AggregateShareAad, AggregateShareReq, AggregationJobContinueReq,
    AggregationJobInitializeReq, AggregationJobResp, AggregationJobStep, BatchId, BatchSelector, Collection,
    CollectionReq, Duration, Extension, ExtensionType, FixedSizeQuery, HpkeAeadId, HpkeCiphertext,
    HpkeConfig, HpkeConfigId, HpkeConfigList, HpkeKdfId, HpkeKemId, InputShareAad, Interval,
    PartialBatchSelector, PlaintextInputShare, PrepareContinue, PrepareError, PrepareInit, PrepareResp,
    PrepareStepResult, Query, Report, ReportId, ReportIdChecksum, ReportMetadata, ReportShare, TaskId, Time,
};
use prio::topology::ping_pong::PingPongMessage;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

/// The DAP task's query type, which fixes how batch selectors and queries encode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryType {
    TimeInterval,
    FixedSize,
}

impl QueryType {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "time_interval" => Ok(QueryType::TimeInterval),
            "fixed_size" => Ok(QueryType::FixedSize),
            other => Err(Error::Input(format!(
                "query type must be \"time_interval\" or \"fixed_size\", got {other:?}"
            ))),
        }
    }
}

/// The message kinds [`decode`] and [`encode`] take.
pub const KINDS: &[&str] = &[
    "HpkeConfig",
    "HpkeConfigList",
    "HpkeCiphertext",
    "ReportMetadata",
    "Report",
    "PlaintextInputShare",
    "InputShareAad",
    "Interval",
    "Query",
    "PartialBatchSelector",
    "BatchSelector",
    "CollectionReq",
    "Collection",
    "ReportShare",
    "PrepareInit",
    "PrepareResp",
    "PrepareContinue",
    "PingPongMessage",
    "AggregationJobInitializeReq",
    "AggregationJobContinueReq",
    "AggregationJobResp",
    "AggregateShareReq",
    "AggregateShare",
    "AggregateShareAad",
];

/// DAP-09's `PrepareError` names, in code order (0 = `batch_collected`).
pub const PREPARE_ERRORS: &[&str] = &[
    "batch_collected",
    "report_replayed",
    "report_dropped",
    "hpke_unknown_config_id",
    "hpke_decrypt_error",
    "vdaf_prep_error",
    "batch_saturated",
    "task_expired",
    "invalid_message",
    "report_too_early",
];

/// Decode the message `kind` from `bytes` (the whole of it) into its JSON object.
pub fn decode(kind: &str, bytes: &[u8], query_type: QueryType) -> Result<Value> {
    let b = bounded("DAP message", bytes)?;
    macro_rules! q {
        ($f:ident) => {
            match query_type {
                QueryType::TimeInterval => $f::<TimeInterval>(b),
                QueryType::FixedSize => $f::<FixedSize>(b),
            }
        };
    }
    match kind {
        "HpkeConfig" => Ok(hpke_config_json(&get::<HpkeConfig>(kind, b)?)),
        "HpkeConfigList" => {
            let l = get::<HpkeConfigList>(kind, b)?;
            Ok(json!({"configs": l.hpke_configs().iter().map(hpke_config_json).collect::<Vec<_>>()}))
        }
        "HpkeCiphertext" => Ok(ciphertext_json(&get::<HpkeCiphertext>(kind, b)?)),
        "ReportMetadata" => Ok(metadata_json(&get::<ReportMetadata>(kind, b)?)),
        "Report" => {
            let r = get::<Report>(kind, b)?;
            Ok(json!({
                "metadata": metadata_json(r.metadata()),
                "public_share": hex::encode(r.public_share()),
                "leader_encrypted_input_share": ciphertext_json(r.leader_encrypted_input_share()),
                "helper_encrypted_input_share": ciphertext_json(r.helper_encrypted_input_share()),
            }))
        }
        "PlaintextInputShare" => {
            let p = get::<PlaintextInputShare>(kind, b)?;
            let exts: Vec<Value> = p
                .extensions()
                .iter()
                .map(|e| json!({"type": *e.extension_type() as u16, "data": hex::encode(e.extension_data())}))
                .collect();
            Ok(json!({"extensions": exts, "payload": hex::encode(p.payload())}))
        }
        "InputShareAad" => {
            let a = get::<InputShareAad>(kind, b)?;
            Ok(json!({
                "task_id": hex::encode(a.task_id().as_ref()),
                "metadata": metadata_json(a.metadata()),
                "public_share": hex::encode(a.public_share()),
            }))
        }
        "Interval" => Ok(interval_json(&get::<Interval>(kind, b)?)),
        "Query" => q!(dec_query),
        "PartialBatchSelector" => q!(dec_partial),
        "BatchSelector" => q!(dec_batch_selector),
        "CollectionReq" => q!(dec_collection_req),
        "Collection" => q!(dec_collection),
        "ReportShare" => Ok(report_share_json(&get::<ReportShare>(kind, b)?)),
        "PrepareInit" => Ok(prepare_init_json(&get::<PrepareInit>(kind, b)?)),
        "PrepareResp" => prepare_resp_json(&get::<PrepareResp>(kind, b)?),
        "PrepareContinue" => {
            let c = get::<PrepareContinue>(kind, b)?;
            Ok(json!({"report_id": hex::encode(c.report_id().as_ref()), "message": enc(c.message())?}))
        }
        "PingPongMessage" => Ok(ping_pong_json(&get::<PingPongMessage>(kind, b)?)),
        "AggregationJobInitializeReq" => q!(dec_agg_init),
        "AggregationJobContinueReq" => {
            let r = get::<AggregationJobContinueReq>(kind, b)?;
            let cs = r
                .prepare_steps()
                .iter()
                .map(|c| Ok(json!({"report_id": hex::encode(c.report_id().as_ref()), "message": enc(c.message())?})))
                .collect::<Result<Vec<_>>>()?;
            Ok(json!({"step": u16::from(r.step()), "prepare_continues": cs}))
        }
        "AggregationJobResp" => {
            let r = get::<AggregationJobResp>(kind, b)?;
            let rs = r.prepare_resps().iter().map(prepare_resp_json).collect::<Result<Vec<_>>>()?;
            Ok(json!({"prepare_resps": rs}))
        }
        "AggregateShareReq" => q!(dec_agg_share_req),
        "AggregateShare" => {
            let s = get::<AggregateShare>(kind, b)?;
            Ok(json!({"encrypted_aggregate_share": ciphertext_json(s.encrypted_aggregate_share())}))
        }
        "AggregateShareAad" => q!(dec_agg_share_aad),
        other => Err(unknown_kind(other)),
    }
}

/// Encode the JSON object of the message `kind` (the shapes of the module documentation).
pub fn encode(kind: &str, v: &Value, query_type: QueryType) -> Result<Vec<u8>> {
    macro_rules! q {
        ($f:ident) => {
            match query_type {
                QueryType::TimeInterval => $f::<TimeInterval>(v),
                QueryType::FixedSize => $f::<FixedSize>(v),
            }
        };
    }
    match kind {
        "HpkeConfig" => enc(&hpke_config(v)?),
        "HpkeConfigList" => {
            let o = obj(v, "HpkeConfigList", &["configs"])?;
            let cs = arr(o, "configs")?.iter().map(hpke_config).collect::<Result<Vec<_>>>()?;
            enc(&HpkeConfigList::new(cs))
        }
        "HpkeCiphertext" => enc(&ciphertext(v)?),
        "ReportMetadata" => enc(&metadata(v)?),
        "Report" => {
            let o = obj(
                v,
                "Report",
                &["metadata", "public_share", "leader_encrypted_input_share", "helper_encrypted_input_share"],
            )?;
            enc(&Report::new(
                metadata(&o["metadata"])?,
                bytes(o, "public_share")?,
                ciphertext(&o["leader_encrypted_input_share"])?,
                ciphertext(&o["helper_encrypted_input_share"])?,
            ))
        }
        "PlaintextInputShare" => {
            let o = obj(v, "PlaintextInputShare", &["extensions", "payload"])?;
            let exts = arr(o, "extensions")?
                .iter()
                .map(|e| {
                    let e = obj(e, "Extension", &["type", "data"])?;
                    let t = uint::<u16>(e, "type")?;
                    let t = ExtensionType::try_from(t)
                        .map_err(|_| Error::Input(format!("unknown extension type {t}")))?;
                    Ok(Extension::new(t, bytes(e, "data")?))
                })
                .collect::<Result<Vec<_>>>()?;
            enc(&PlaintextInputShare::new(exts, bytes(o, "payload")?))
        }
        "InputShareAad" => {
            let o = obj(v, "InputShareAad", &["task_id", "metadata", "public_share"])?;
            enc(&InputShareAad::new(task_id(o)?, metadata(&o["metadata"])?, bytes(o, "public_share")?))
        }
        "Interval" => enc(&interval(v)?),
        "Query" => q!(enc_query),
        "PartialBatchSelector" => q!(enc_partial),
        "BatchSelector" => q!(enc_batch_selector),
        "CollectionReq" => q!(enc_collection_req),
        "Collection" => q!(enc_collection),
        "ReportShare" => enc(&report_share(v)?),
        "PrepareInit" => enc(&prepare_init(v)?),
        "PrepareResp" => enc(&prepare_resp(v)?),
        "PrepareContinue" => enc(&prepare_continue(v)?),
        "PingPongMessage" => enc(&ping_pong(v)?),
        "AggregationJobInitializeReq" => q!(enc_agg_init),
        "AggregationJobContinueReq" => {
            let o = obj(v, "AggregationJobContinueReq", &["step", "prepare_continues"])?;
            let cs = arr(o, "prepare_continues")?.iter().map(prepare_continue).collect::<Result<Vec<_>>>()?;
            enc(&AggregationJobContinueReq::new(AggregationJobStep::from(uint::<u16>(o, "step")?), cs))
        }
        "AggregationJobResp" => {
            let o = obj(v, "AggregationJobResp", &["prepare_resps"])?;
            let rs = arr(o, "prepare_resps")?.iter().map(prepare_resp).collect::<Result<Vec<_>>>()?;
            enc(&AggregationJobResp::new(rs))
        }
        "AggregateShareReq" => q!(enc_agg_share_req),
        "AggregateShare" => {
            let o = obj(v, "AggregateShare", &["encrypted_aggregate_share"])?;
            enc(&AggregateShare::new(ciphertext(&o["encrypted_aggregate_share"])?))
        }
        "AggregateShareAad" => q!(enc_agg_share_aad),
        other => Err(unknown_kind(other)),
    }
}

/// The HTTP media type of a message `kind` that travels as a request or response body, as
/// `janus_messages` declares it (`MEDIA_TYPE`); `None` for messages that never do.
pub fn media_type(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "HpkeConfigList" => HpkeConfigList::MEDIA_TYPE,
        "Report" => Report::MEDIA_TYPE,
        "CollectionReq" => CollectionReq::<TimeInterval>::MEDIA_TYPE,
        "Collection" => Collection::<TimeInterval>::MEDIA_TYPE,
        "AggregationJobInitializeReq" => AggregationJobInitializeReq::<TimeInterval>::MEDIA_TYPE,
        "AggregationJobContinueReq" => AggregationJobContinueReq::MEDIA_TYPE,
        "AggregationJobResp" => AggregationJobResp::MEDIA_TYPE,
        "AggregateShareReq" => AggregateShareReq::<TimeInterval>::MEDIA_TYPE,
        "AggregateShare" => AggregateShare::MEDIA_TYPE,
        _ => return None,
    })
}

/// DAP-09's report ID checksum of a batch: the XOR of SHA-256 over each 16-byte report ID
/// (what `AggregateShareReq.checksum` carries; janus computes it the same way).
pub fn report_id_checksum<'a>(report_ids: impl IntoIterator<Item = &'a [u8]>) -> Result<[u8; 32]> {
    let mut sum = [0u8; 32];
    for id in report_ids {
        let id = fixed::<16>("report ID", id)?;
        for (s, d) in sum.iter_mut().zip(Sha256::digest(id)) {
            *s ^= d;
        }
    }
    Ok(sum)
}

// ---- helpers ---------------------------------------------------------------------------------

fn unknown_kind(kind: &str) -> Error {
    Error::Input(format!("unknown DAP message kind {kind:?} (one of {})", KINDS.join(", ")))
}

fn get<T: Decode>(kind: &str, b: &[u8]) -> Result<T> {
    // `what` is static in Error::Decode; the kind is in the message.
    T::get_decoded(b).map_err(|e| Error::Decode { what: "DAP message", msg: format!("{kind}: {e}") })
}

fn enc<T: Encode>(t: &T) -> Result<Vec<u8>> {
    t.get_encoded().map_err(|e| Error::Input(format!("cannot encode: {e}")))
}

fn obj<'a>(v: &'a Value, what: &str, keys: &[&str]) -> Result<&'a Map<String, Value>> {
    let o = v.as_object().ok_or_else(|| Error::Input(format!("{what} must be an object")))?;
    if let Some(k) = o.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err(Error::Input(format!("{what} has no field {k:?}")));
    }
    if let Some(k) = keys.iter().find(|k| !o.contains_key(**k)) {
        return Err(Error::Input(format!("{what} needs {k:?}")));
    }
    Ok(o)
}

fn arr<'a>(o: &'a Map<String, Value>, k: &str) -> Result<&'a Vec<Value>> {
    o[k].as_array().ok_or_else(|| Error::Input(format!("{k} must be a list")))
}

fn uint<T: TryFrom<u64>>(o: &Map<String, Value>, k: &str) -> Result<T> {
    o[k].as_u64()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| Error::Input(format!("{k} must be an integer in range")))
}

fn bytes(o: &Map<String, Value>, k: &str) -> Result<Vec<u8>> {
    let s = o[k].as_str().ok_or_else(|| Error::Input(format!("{k} must be a hex string")))?;
    if s.len() > 2 * crate::MAX_MESSAGE_BYTES {
        return Err(Error::Input(format!("{k} is too long")));
    }
    hex::decode(s).map_err(|e| Error::Input(format!("{k} is not hex: {e}")))
}

fn fixed<const N: usize>(what: &str, b: &[u8]) -> Result<[u8; N]> {
    b.try_into().map_err(|_| Error::Input(format!("{what} must be {N} bytes, got {}", b.len())))
}

fn task_id(o: &Map<String, Value>) -> Result<TaskId> {
    Ok(TaskId::from(fixed::<32>("task_id", &bytes(o, "task_id")?)?))
}

fn report_id(o: &Map<String, Value>) -> Result<ReportId> {
    Ok(ReportId::from(fixed::<16>("report_id", &bytes(o, "report_id")?)?))
}

fn batch_id(o: &Map<String, Value>) -> Result<BatchId> {
    Ok(BatchId::from(fixed::<32>("batch_id", &bytes(o, "batch_id")?)?))
}

fn hpke_config_json(c: &HpkeConfig) -> Value {
    json!({
        "id": u8::from(*c.id()),
        "kem_id": u16::from(*c.kem_id()),
        "kdf_id": u16::from(*c.kdf_id()),
        "aead_id": u16::from(*c.aead_id()),
        "public_key": hex::encode(c.public_key().as_ref()),
    })
}

fn hpke_config(v: &Value) -> Result<HpkeConfig> {
    let o = obj(v, "HpkeConfig", &["id", "kem_id", "kdf_id", "aead_id", "public_key"])?;
    Ok(HpkeConfig::new(
        HpkeConfigId::from(uint::<u8>(o, "id")?),
        HpkeKemId::from(uint::<u16>(o, "kem_id")?),
        HpkeKdfId::from(uint::<u16>(o, "kdf_id")?),
        HpkeAeadId::from(uint::<u16>(o, "aead_id")?),
        bytes(o, "public_key")?.into(),
    ))
}

fn ciphertext_json(c: &HpkeCiphertext) -> Value {
    json!({
        "config_id": u8::from(*c.config_id()),
        "encapsulated_key": hex::encode(c.encapsulated_key()),
        "payload": hex::encode(c.payload()),
    })
}

fn ciphertext(v: &Value) -> Result<HpkeCiphertext> {
    let o = obj(v, "HpkeCiphertext", &["config_id", "encapsulated_key", "payload"])?;
    Ok(HpkeCiphertext::new(
        HpkeConfigId::from(uint::<u8>(o, "config_id")?),
        bytes(o, "encapsulated_key")?,
        bytes(o, "payload")?,
    ))
}

fn metadata_json(m: &ReportMetadata) -> Value {
    json!({"report_id": hex::encode(m.id().as_ref()), "time": m.time().as_seconds_since_epoch()})
}

fn metadata(v: &Value) -> Result<ReportMetadata> {
    let o = obj(v, "ReportMetadata", &["report_id", "time"])?;
    Ok(ReportMetadata::new(report_id(o)?, Time::from_seconds_since_epoch(uint(o, "time")?)))
}

fn interval_json(i: &Interval) -> Value {
    json!({"start": i.start().as_seconds_since_epoch(), "duration": i.duration().as_seconds()})
}

fn interval(v: &Value) -> Result<Interval> {
    let o = obj(v, "Interval", &["start", "duration"])?;
    Interval::new(
        Time::from_seconds_since_epoch(uint(o, "start")?),
        Duration::from_seconds(uint(o, "duration")?),
    )
    .map_err(|e| Error::Input(format!("interval: {e}")))
}

fn report_share_json(r: &ReportShare) -> Value {
    json!({
        "metadata": metadata_json(r.metadata()),
        "public_share": hex::encode(r.public_share()),
        "encrypted_input_share": ciphertext_json(r.encrypted_input_share()),
    })
}

fn report_share(v: &Value) -> Result<ReportShare> {
    let o = obj(v, "ReportShare", &["metadata", "public_share", "encrypted_input_share"])?;
    Ok(ReportShare::new(
        metadata(&o["metadata"])?,
        bytes(o, "public_share")?,
        ciphertext(&o["encrypted_input_share"])?,
    ))
}

fn ping_pong_json(m: &PingPongMessage) -> Value {
    match m {
        PingPongMessage::Initialize { prep_share } => {
            json!({"type": "initialize", "prep_share": hex::encode(prep_share)})
        }
        PingPongMessage::Continue { prep_msg, prep_share } => json!({
            "type": "continue", "prep_msg": hex::encode(prep_msg), "prep_share": hex::encode(prep_share)
        }),
        PingPongMessage::Finish { prep_msg } => json!({"type": "finish", "prep_msg": hex::encode(prep_msg)}),
    }
}

fn type_name<'a>(v: &'a Value, what: &str) -> Result<&'a str> {
    v.get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::Input(format!("{what} needs a string \"type\"")))
}

fn ping_pong(v: &Value) -> Result<PingPongMessage> {
    Ok(match type_name(v, "PingPongMessage")? {
        "initialize" => {
            let o = obj(v, "PingPongMessage", &["type", "prep_share"])?;
            PingPongMessage::Initialize { prep_share: bytes(o, "prep_share")? }
        }
        "continue" => {
            let o = obj(v, "PingPongMessage", &["type", "prep_msg", "prep_share"])?;
            PingPongMessage::Continue { prep_msg: bytes(o, "prep_msg")?, prep_share: bytes(o, "prep_share")? }
        }
        "finish" => {
            let o = obj(v, "PingPongMessage", &["type", "prep_msg"])?;
            PingPongMessage::Finish { prep_msg: bytes(o, "prep_msg")? }
        }
        t => return Err(Error::Input(format!("unknown PingPongMessage type {t:?}"))),
    })
}

/// An encoded ping-pong message from its `message` field.
fn message(o: &Map<String, Value>) -> Result<PingPongMessage> {
    let b = bytes(o, "message")?;
    PingPongMessage::get_decoded(&b)
        .map_err(|e| Error::Input(format!("message is not a ping-pong message: {e}")))
}

fn prepare_init_json(p: &PrepareInit) -> Value {
    json!({
        "report_share": report_share_json(p.report_share()),
        "message": hex::encode(p.message().get_encoded().unwrap_or_default()),
    })
}

fn prepare_init(v: &Value) -> Result<PrepareInit> {
    let o = obj(v, "PrepareInit", &["report_share", "message"])?;
    Ok(PrepareInit::new(report_share(&o["report_share"])?, message(o)?))
}

fn prepare_resp_json(r: &PrepareResp) -> Result<Value> {
    let result = match r.result() {
        PrepareStepResult::Continue { message } => {
            json!({"type": "continue", "message": enc(message).map(hex::encode)?})
        }
        PrepareStepResult::Finished => json!({"type": "finished"}),
        PrepareStepResult::Reject(e) => {
            let name = PREPARE_ERRORS.get(*e as usize).copied().unwrap_or("unknown");
            json!({"type": "reject", "error": name})
        }
    };
    Ok(json!({"report_id": hex::encode(r.report_id().as_ref()), "result": result}))
}

fn prepare_resp(v: &Value) -> Result<PrepareResp> {
    let o = obj(v, "PrepareResp", &["report_id", "result"])?;
    let r = &o["result"];
    let result = match type_name(r, "PrepareResp result")? {
        "continue" => {
            PrepareStepResult::Continue { message: message(obj(r, "result", &["type", "message"])?)? }
        }
        "finished" => {
            obj(r, "result", &["type"])?;
            PrepareStepResult::Finished
        }
        "reject" => {
            let ro = obj(r, "result", &["type", "error"])?;
            let name = ro["error"].as_str().unwrap_or_default();
            let code = PREPARE_ERRORS
                .iter()
                .position(|n| *n == name)
                .ok_or_else(|| Error::Input(format!("unknown prepare error {:?}", ro["error"])))?;
            let e = PrepareError::try_from(code as u8)
                .map_err(|_| Error::Input(format!("prepare error {name} not in janus_messages")))?;
            PrepareStepResult::Reject(e)
        }
        t => return Err(Error::Input(format!("unknown PrepareResp result type {t:?}"))),
    };
    Ok(PrepareResp::new(report_id(o)?, result))
}

fn prepare_continue(v: &Value) -> Result<PrepareContinue> {
    let o = obj(v, "PrepareContinue", &["report_id", "message"])?;
    Ok(PrepareContinue::new(report_id(o)?, message(o)?))
}

// ---- query-type-dependent messages -------------------------------------------------------------

/// JSON for the parts of a message that depend on the task's query type.
trait QueryJson: JanusQueryType + Sized {
    fn query_json(q: &Query<Self>) -> Value;
    fn query(v: &Value) -> Result<Query<Self>>;
    fn partial_json(p: &PartialBatchSelector<Self>) -> Value;
    fn partial(v: &Value) -> Result<PartialBatchSelector<Self>>;
    fn selector_json(b: &BatchSelector<Self>) -> Value;
    fn selector(v: &Value) -> Result<BatchSelector<Self>>;
}

impl QueryJson for TimeInterval {
    fn query_json(q: &Query<Self>) -> Value {
        json!({"batch_interval": interval_json(q.batch_interval())})
    }
    fn query(v: &Value) -> Result<Query<Self>> {
        let o = obj(v, "Query", &["batch_interval"])?;
        Ok(Query::new_time_interval(interval(&o["batch_interval"])?))
    }
    fn partial_json(_: &PartialBatchSelector<Self>) -> Value {
        json!({})
    }
    fn partial(v: &Value) -> Result<PartialBatchSelector<Self>> {
        obj(v, "PartialBatchSelector", &[])?;
        Ok(PartialBatchSelector::new_time_interval())
    }
    fn selector_json(b: &BatchSelector<Self>) -> Value {
        json!({"batch_interval": interval_json(b.batch_interval())})
    }
    fn selector(v: &Value) -> Result<BatchSelector<Self>> {
        let o = obj(v, "BatchSelector", &["batch_interval"])?;
        Ok(BatchSelector::new_time_interval(interval(&o["batch_interval"])?))
    }
}

impl QueryJson for FixedSize {
    fn query_json(q: &Query<Self>) -> Value {
        match q.fixed_size_query() {
            FixedSizeQuery::ByBatchId { batch_id } => {
                json!({"type": "by_batch_id", "batch_id": hex::encode(batch_id.as_ref())})
            }
            FixedSizeQuery::CurrentBatch => json!({"type": "current_batch"}),
        }
    }
    fn query(v: &Value) -> Result<Query<Self>> {
        Ok(Query::new_fixed_size(match type_name(v, "Query")? {
            "by_batch_id" => {
                FixedSizeQuery::ByBatchId { batch_id: batch_id(obj(v, "Query", &["type", "batch_id"])?)? }
            }
            "current_batch" => {
                obj(v, "Query", &["type"])?;
                FixedSizeQuery::CurrentBatch
            }
            t => return Err(Error::Input(format!("unknown fixed-size query type {t:?}"))),
        }))
    }
    fn partial_json(p: &PartialBatchSelector<Self>) -> Value {
        json!({"batch_id": hex::encode(p.batch_id().as_ref())})
    }
    fn partial(v: &Value) -> Result<PartialBatchSelector<Self>> {
        Ok(PartialBatchSelector::new_fixed_size(batch_id(obj(v, "PartialBatchSelector", &["batch_id"])?)?))
    }
    fn selector_json(b: &BatchSelector<Self>) -> Value {
        json!({"batch_id": hex::encode(b.batch_id().as_ref())})
    }
    fn selector(v: &Value) -> Result<BatchSelector<Self>> {
        Ok(BatchSelector::new_fixed_size(batch_id(obj(v, "BatchSelector", &["batch_id"])?)?))
    }
}

fn dec_query<Q: QueryJson>(b: &[u8]) -> Result<Value> {
    Ok(Q::query_json(&get::<Query<Q>>("Query", b)?))
}
fn enc_query<Q: QueryJson>(v: &Value) -> Result<Vec<u8>> {
    enc(&Q::query(v)?)
}
fn dec_partial<Q: QueryJson>(b: &[u8]) -> Result<Value> {
    Ok(Q::partial_json(&get::<PartialBatchSelector<Q>>("PartialBatchSelector", b)?))
}
fn enc_partial<Q: QueryJson>(v: &Value) -> Result<Vec<u8>> {
    enc(&Q::partial(v)?)
}
fn dec_batch_selector<Q: QueryJson>(b: &[u8]) -> Result<Value> {
    Ok(Q::selector_json(&get::<BatchSelector<Q>>("BatchSelector", b)?))
}
fn enc_batch_selector<Q: QueryJson>(v: &Value) -> Result<Vec<u8>> {
    enc(&Q::selector(v)?)
}

fn dec_collection_req<Q: QueryJson>(b: &[u8]) -> Result<Value> {
    let r = get::<CollectionReq<Q>>("CollectionReq", b)?;
    Ok(json!({
        "query": Q::query_json(r.query()),
        "aggregation_parameter": hex::encode(r.aggregation_parameter()),
    }))
}
fn enc_collection_req<Q: QueryJson>(v: &Value) -> Result<Vec<u8>> {
    let o = obj(v, "CollectionReq", &["query", "aggregation_parameter"])?;
    enc(&CollectionReq::new(Q::query(&o["query"])?, bytes(o, "aggregation_parameter")?))
}

fn dec_collection<Q: QueryJson>(b: &[u8]) -> Result<Value> {
    let c = get::<Collection<Q>>("Collection", b)?;
    Ok(json!({
        "partial_batch_selector": Q::partial_json(c.partial_batch_selector()),
        "report_count": c.report_count(),
        "interval": interval_json(c.interval()),
        "leader_encrypted_agg_share": ciphertext_json(c.leader_encrypted_aggregate_share()),
        "helper_encrypted_agg_share": ciphertext_json(c.helper_encrypted_aggregate_share()),
    }))
}
fn enc_collection<Q: QueryJson>(v: &Value) -> Result<Vec<u8>> {
    let o = obj(
        v,
        "Collection",
        &[
            "partial_batch_selector",
            "report_count",
            "interval",
            "leader_encrypted_agg_share",
            "helper_encrypted_agg_share",
        ],
    )?;
    enc(&Collection::new(
        Q::partial(&o["partial_batch_selector"])?,
        uint(o, "report_count")?,
        interval(&o["interval"])?,
        ciphertext(&o["leader_encrypted_agg_share"])?,
        ciphertext(&o["helper_encrypted_agg_share"])?,
    ))
}

fn dec_agg_init<Q: QueryJson>(b: &[u8]) -> Result<Value> {
    let r = get::<AggregationJobInitializeReq<Q>>("AggregationJobInitializeReq", b)?;
    Ok(json!({
        "aggregation_parameter": hex::encode(r.aggregation_parameter()),
        "partial_batch_selector": Q::partial_json(r.batch_selector()),
        "prepare_inits": r.prepare_inits().iter().map(prepare_init_json).collect::<Vec<_>>(),
    }))
}
fn enc_agg_init<Q: QueryJson>(v: &Value) -> Result<Vec<u8>> {
    let o = obj(
        v,
        "AggregationJobInitializeReq",
        &["aggregation_parameter", "partial_batch_selector", "prepare_inits"],
    )?;
    let inits = arr(o, "prepare_inits")?.iter().map(prepare_init).collect::<Result<Vec<_>>>()?;
    enc(&AggregationJobInitializeReq::new(
        bytes(o, "aggregation_parameter")?,
        Q::partial(&o["partial_batch_selector"])?,
        inits,
    ))
}

fn dec_agg_share_req<Q: QueryJson>(b: &[u8]) -> Result<Value> {
    let r = get::<AggregateShareReq<Q>>("AggregateShareReq", b)?;
    Ok(json!({
        "batch_selector": Q::selector_json(r.batch_selector()),
        "aggregation_parameter": hex::encode(r.aggregation_parameter()),
        "report_count": r.report_count(),
        "checksum": hex::encode(r.checksum().as_ref()),
    }))
}
fn enc_agg_share_req<Q: QueryJson>(v: &Value) -> Result<Vec<u8>> {
    let o = obj(
        v,
        "AggregateShareReq",
        &["batch_selector", "aggregation_parameter", "report_count", "checksum"],
    )?;
    enc(&AggregateShareReq::new(
        Q::selector(&o["batch_selector"])?,
        bytes(o, "aggregation_parameter")?,
        uint(o, "report_count")?,
        ReportIdChecksum::from(fixed::<32>("checksum", &bytes(o, "checksum")?)?),
    ))
}

fn dec_agg_share_aad<Q: QueryJson>(b: &[u8]) -> Result<Value> {
    let a = get::<AggregateShareAad<Q>>("AggregateShareAad", b)?;
    Ok(json!({
        "task_id": hex::encode(a.task_id().as_ref()),
        "aggregation_parameter": hex::encode(a.aggregation_parameter()),
        "batch_selector": Q::selector_json(a.batch_selector()),
    }))
}
fn enc_agg_share_aad<Q: QueryJson>(v: &Value) -> Result<Vec<u8>> {
    let o = obj(v, "AggregateShareAad", &["task_id", "aggregation_parameter", "batch_selector"])?;
    enc(&AggregateShareAad::new(
        task_id(o)?,
        bytes(o, "aggregation_parameter")?,
        Q::selector(&o["batch_selector"])?,
    ))
}
