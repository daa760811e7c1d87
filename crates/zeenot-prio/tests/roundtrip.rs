//! Client → leader/helper (DAP-09 ping-pong) → collector through `zeenot_prio::Vdaf`, and the
//! failures: a bit-flipped input share is rejected at preparation, truncated or extended bytes
//! are decode errors, mismatched arguments are input errors. HPKE seal/open and DAP message
//! round trips through janus_messages' codecs.

use serde_json::json;
use zeenot_prio::dap::{self, QueryType};
use zeenot_prio::{hpke, AggregateResult, Error, Measurement, Vdaf, VdafKind};

const VK: [u8; 16] = [7; 16];

fn nonce(i: u8) -> [u8; 16] {
    [i; 16]
}

/// Run DAP's ping-pong preparation for each measurement; returns the collector's result.
fn run(vdaf: &Vdaf, ms: &[Measurement]) -> AggregateResult {
    let (mut leader, mut helper) = (Vec::new(), Vec::new());
    for (i, m) in ms.iter().enumerate() {
        let n = nonce(i as u8);
        let s = vdaf.shard(m, &n).unwrap();
        let (state, msg) = vdaf.leader_initialized(&VK, &n, &s.public_share, &s.input_shares[0]).unwrap();
        let (h_out, reply) =
            vdaf.helper_initialized(&VK, &n, &s.public_share, &s.input_shares[1], &msg).unwrap();
        let l_out = vdaf.leader_continued(&state, &reply).unwrap();
        leader.push(l_out);
        helper.push(h_out);
    }
    let agg = |v: &Vec<Vec<u8>>| vdaf.aggregate(&v.iter().map(Vec::as_slice).collect::<Vec<_>>()).unwrap();
    let (l, h) = (agg(&leader), agg(&helper));
    // Merging two halves equals aggregating all.
    let half = leader.len() / 2;
    let l1 = vdaf.aggregate(&leader[..half].iter().map(Vec::as_slice).collect::<Vec<_>>()).unwrap();
    let l2 = vdaf.aggregate(&leader[half..].iter().map(Vec::as_slice).collect::<Vec<_>>()).unwrap();
    assert_eq!(vdaf.merge(&[&l1, &l2]).unwrap(), l);
    vdaf.unshard(&[&l, &h], ms.len()).unwrap()
}

#[test]
fn ping_pong_round_trips() {
    let count = Vdaf::new(VdafKind::Prio3Count).unwrap();
    let ms = [true, false, true, true].map(Measurement::Count);
    assert_eq!(run(&count, &ms), AggregateResult::Count(3));

    let sum = Vdaf::new(VdafKind::Prio3Sum { bits: 32 }).unwrap();
    let ms = [1u128, 2, u32::MAX as u128].map(Measurement::Sum);
    assert_eq!(run(&sum, &ms), AggregateResult::Sum(3 + u32::MAX as u128));

    let sv = Vdaf::new(VdafKind::Prio3SumVec { bits: 4, length: 3, chunk_length: 2 }).unwrap();
    let ms = [vec![1, 2, 15], vec![0, 1, 1]].map(Measurement::SumVec);
    assert_eq!(run(&sv, &ms), AggregateResult::SumVec(vec![1, 3, 16]));

    let h = Vdaf::new(VdafKind::Prio3Histogram { length: 4, chunk_length: 2 }).unwrap();
    let ms = [0usize, 3, 3].map(Measurement::Histogram);
    assert_eq!(run(&h, &ms), AggregateResult::Histogram(vec![1, 0, 0, 2]));
}

#[test]
fn bit_flipped_input_share_is_rejected() {
    for kind in [
        VdafKind::Prio3Count,
        VdafKind::Prio3Sum { bits: 8 },
        VdafKind::Prio3Histogram { length: 4, chunk_length: 2 },
    ] {
        let vdaf = Vdaf::new(kind).unwrap();
        let m = match kind {
            VdafKind::Prio3Count => Measurement::Count(true),
            VdafKind::Prio3Sum { .. } => Measurement::Sum(5),
            _ => Measurement::Histogram(1),
        };
        let n = nonce(1);
        let s = vdaf.shard(&m, &n).unwrap();
        // Flip a bit of the leader's first measurement-share element (its low byte, so the
        // element stays canonical and decodes).
        let mut bad = s.input_shares[0].clone();
        bad[0] ^= 1;
        let (state, msg) = vdaf.leader_initialized(&VK, &n, &s.public_share, &bad).unwrap();
        let r = vdaf.helper_initialized(&VK, &n, &s.public_share, &s.input_shares[1], &msg);
        assert!(matches!(r, Err(Error::Rejected(_))), "{kind:?}: {r:?}");
        // And with the VDAF's own operations.
        let (hs, hshare) = vdaf.prepare_init(&VK, 1, &n, &s.public_share, &s.input_shares[1]).unwrap();
        let (_, lshare) = vdaf.prepare_init(&VK, 0, &n, &s.public_share, &bad).unwrap();
        let r = vdaf.prepare_shares_to_prepare_message(1, &hs, &[&lshare, &hshare]);
        assert!(matches!(r, Err(Error::Rejected(_))), "{kind:?}: {r:?}");
        drop(state);
        // A different verify key on one side is rejected as well.
        let (_, msg) = vdaf.leader_initialized(&[8; 16], &n, &s.public_share, &s.input_shares[0]).unwrap();
        let r = vdaf.helper_initialized(&VK, &n, &s.public_share, &s.input_shares[1], &msg);
        assert!(matches!(r, Err(Error::Rejected(_))), "{kind:?}: {r:?}");
    }
}

#[test]
fn truncated_and_extended_bytes_are_decode_errors() {
    let vdaf = Vdaf::new(VdafKind::Prio3Sum { bits: 16 }).unwrap();
    let n = nonce(2);
    let s = vdaf.shard(&Measurement::Sum(9), &n).unwrap();
    let input = &s.input_shares[0];
    let longer = [input.as_slice(), &[0]].concat();
    for bad in [&input[..input.len() - 1], &longer[..], &[][..]] {
        let r = vdaf.prepare_init(&VK, 0, &n, &s.public_share, bad);
        assert!(matches!(r, Err(Error::Decode { .. })), "{r:?}");
    }
    let (state, msg) = vdaf.leader_initialized(&VK, &n, &s.public_share, input).unwrap();
    let r = vdaf.helper_initialized(&VK, &n, &s.public_share, &s.input_shares[1], &msg[..msg.len() - 1]);
    assert!(matches!(r, Err(Error::Decode { .. })), "{r:?}");
    let r = vdaf.leader_continued(&state[..3], &msg);
    assert!(matches!(r, Err(Error::Decode { .. })), "{r:?}");
    assert!(matches!(vdaf.aggregate(&[&[1, 2, 3]]), Err(Error::Decode { .. })));
    assert!(matches!(vdaf.unshard(&[&[], &[]], 1), Err(Error::Decode { .. })));
}

#[test]
fn bad_arguments_are_input_errors() {
    let vdaf = Vdaf::new(VdafKind::Prio3Sum { bits: 8 }).unwrap();
    assert!(matches!(vdaf.shard(&Measurement::Sum(256), &nonce(0)), Err(Error::Input(_))));
    assert!(matches!(vdaf.shard(&Measurement::Count(true), &nonce(0)), Err(Error::Input(_))));
    assert!(matches!(vdaf.shard(&Measurement::Sum(1), &[0; 15]), Err(Error::Input(_))));
    let s = vdaf.shard(&Measurement::Sum(1), &nonce(0)).unwrap();
    let r = vdaf.prepare_init(&VK[..15], 0, &nonce(0), &s.public_share, &s.input_shares[0]);
    assert!(matches!(r, Err(Error::Input(_))));
    let r = vdaf.prepare_init(&VK, 2, &nonce(0), &s.public_share, &s.input_shares[0]);
    assert!(matches!(r, Err(Error::Input(_))));
    let three = Vdaf::with_aggregators(VdafKind::Prio3Count, 3).unwrap();
    assert!(matches!(three.leader_continued(&[], &[]), Err(Error::Input(_))));
    assert!(Vdaf::with_aggregators(VdafKind::Prio3Count, 1).is_err());
}

#[test]
fn hpke_seal_open() {
    let (config, sk) = hpke::generate(3, 0x0020, 0x0001, 0x0001).unwrap();
    let info = hpke::application_info(
        hpke::Label::InputShare,
        hpke::role("client").unwrap(),
        hpke::role("leader").unwrap(),
    );
    assert_eq!(&info[..18], b"dap-09 input share");
    assert_eq!(&info[18..], &[1, 2]);
    let ct = hpke::seal(&config, &info, b"secret", b"aad").unwrap();
    assert_eq!(hpke::open(&config, &sk, &info, &ct, b"aad").unwrap(), b"secret");
    assert!(matches!(hpke::open(&config, &sk, &info, &ct, b"other"), Err(Error::Hpke(_))));
    let other_info = hpke::application_info(
        hpke::Label::InputShare,
        hpke::role("client").unwrap(),
        hpke::role("helper").unwrap(),
    );
    assert!(matches!(hpke::open(&config, &sk, &other_info, &ct, b"aad"), Err(Error::Hpke(_))));
    let (config2, _) = hpke::generate(4, 0x0010, 0x0001, 0x0003).unwrap();
    assert!(matches!(hpke::open(&config2, &sk, &info, &ct, b"aad"), Err(Error::Hpke(_))));
    assert!(matches!(
        hpke::open(&config, &sk, &info, &ct[..ct.len() - 1], b"aad"),
        Err(Error::Decode { .. })
    ));
    assert!(hpke::generate(1, 0x0011, 1, 1).is_err());
}

#[test]
fn dap_messages_round_trip() {
    let ct = json!({"config_id": 1, "encapsulated_key": "aa", "payload": "bbcc"});
    let md = json!({"report_id": "00".repeat(16), "time": 1_700_000_000u64});
    let report = json!({
        "metadata": md, "public_share": "0102",
        "leader_encrypted_input_share": ct, "helper_encrypted_input_share": ct,
    });
    let ti = QueryType::TimeInterval;
    let bytes = dap::encode("Report", &report, ti).unwrap();
    assert_eq!(dap::decode("Report", &bytes, ti).unwrap(), report);
    assert!(matches!(dap::decode("Report", &bytes[..bytes.len() - 1], ti), Err(Error::Decode { .. })));
    let longer = [bytes.as_slice(), &[0]].concat();
    assert!(matches!(dap::decode("Report", &longer, ti), Err(Error::Decode { .. })));

    let ping =
        dap::encode("PingPongMessage", &json!({"type": "initialize", "prep_share": "0a0b"}), ti).unwrap();
    let init = json!({
        "aggregation_parameter": "",
        "partial_batch_selector": {},
        "prepare_inits": [{
            "report_share": {"metadata": md, "public_share": "", "encrypted_input_share": ct},
            "message": hex::encode(&ping),
        }],
    });
    let b = dap::encode("AggregationJobInitializeReq", &init, ti).unwrap();
    assert_eq!(dap::decode("AggregationJobInitializeReq", &b, ti).unwrap(), init);
    // The same bytes do not decode as a fixed-size request.
    assert!(dap::decode("AggregationJobInitializeReq", &b, QueryType::FixedSize).is_err());

    let resp = json!({"prepare_resps": [
        {"report_id": "01".repeat(16), "result": {"type": "continue", "message": hex::encode(&ping)}},
        {"report_id": "02".repeat(16), "result": {"type": "finished"}},
        {"report_id": "03".repeat(16), "result": {"type": "reject", "error": "vdaf_prep_error"}},
    ]});
    let b = dap::encode("AggregationJobResp", &resp, ti).unwrap();
    assert_eq!(dap::decode("AggregationJobResp", &b, ti).unwrap(), resp);

    let sel = json!({"batch_interval": {"start": 1_700_000_000u64, "duration": 3600}});
    let req = json!({"batch_selector": sel, "aggregation_parameter": "", "report_count": 10,
                     "checksum": "ff".repeat(32)});
    let b = dap::encode("AggregateShareReq", &req, ti).unwrap();
    assert_eq!(dap::decode("AggregateShareReq", &b, ti).unwrap(), req);
    let fixed = json!({"type": "by_batch_id", "batch_id": "11".repeat(32)});
    let b = dap::encode("Query", &fixed, QueryType::FixedSize).unwrap();
    assert_eq!(dap::decode("Query", &b, QueryType::FixedSize).unwrap(), fixed);

    // Strict shapes.
    let mut extra = report.clone();
    extra["x"] = json!(1);
    assert!(matches!(dap::encode("Report", &extra, ti), Err(Error::Input(_))));
    assert!(matches!(dap::encode("Nope", &report, ti), Err(Error::Input(_))));
    assert_eq!(dap::media_type("Report"), Some("application/dap-report"));

    let a = [1u8; 16];
    let b = [2u8; 16];
    let c1 = dap::report_id_checksum([&a[..], &b[..]]).unwrap();
    let c2 = dap::report_id_checksum([&b[..], &a[..]]).unwrap();
    assert_eq!(c1, c2);
    assert_eq!(dap::report_id_checksum([&a[..], &a[..]]).unwrap(), [0; 32]);
}
