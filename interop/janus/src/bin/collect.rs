//! Collect an aggregate from a DAP-09 leader with Divvi Up's `janus_collector` 0.7.145.
//!
//! collect --leader URL --task-id ID --vdaf "Prio3Sum bits=32" --credential FILE
//!         --batch-start UNIX_SECONDS --batch-duration SECONDS [--timeout SECONDS]
//!
//! FILE is a janus `PrivateCollectorCredential` (JSON: id, kem, kdf, aead, public_key,
//! private_key, token; the token is sent as `Authorization: Bearer`). The collector `PUT`s a
//! collection job (expects 201), `POST`s to poll it (202 until 200), opens both encrypted
//! aggregate shares and unshards them, then `DELETE`s the job. Prints
//! `{"report_count": N, "interval_start": T, "interval_duration": D, "aggregate_result": R}`
//! where R is an integer (Count, Sum) or a list of integers (SumVec, Histogram).

use anyhow::{Context, Result};
use backoff::ExponentialBackoff;
use janus_collector::{Collector, PrivateCollectorCredential};
use janus_messages::{Duration, Interval, Query, TaskId, Time};
use prio::vdaf::prio3::Prio3;
use std::{fmt::Display, str::FromStr, time::Duration as StdDuration};
use url::Url;
use zeenot_janus_interop::{Flags, VdafSpec};

struct Params {
    leader: Url,
    task_id: TaskId,
    credential: PrivateCollectorCredential,
    interval: Interval,
    timeout: StdDuration,
}

fn json_list<T: Display>(values: &[T]) -> String {
    let items: Vec<String> = values.iter().map(ToString::to_string).collect();
    format!("[{}]", items.join(", "))
}

async fn collect<V, F>(params: &Params, vdaf: V, render: F) -> Result<String>
where
    V: prio::vdaf::Collector<AggregationParam = ()>,
    F: Fn(&V::AggregateResult) -> String,
{
    let poll = ExponentialBackoff {
        initial_interval: StdDuration::from_millis(250),
        max_interval: StdDuration::from_secs(2),
        multiplier: 1.5,
        max_elapsed_time: Some(params.timeout),
        ..Default::default()
    };
    let collector = Collector::builder(
        params.task_id,
        params.leader.clone(),
        params.credential.authentication_token(),
        params.credential.hpke_keypair(),
        vdaf,
    )
    .with_collect_poll_backoff(poll)
    .build()?;
    let job = collector
        .start_collection(Query::new_time_interval(params.interval), &())
        .await
        .context("creating the collection job")?;
    let collection = collector.poll_until_complete(&job).await.context("polling the collection job")?;
    collector.delete_collection_job(&job).await.context("deleting the collection job")?;
    let (start, duration) = collection.interval();
    Ok(format!(
        "{{\"report_count\": {}, \"interval_start\": {}, \"interval_duration\": {}, \
         \"aggregate_result\": {}}}",
        collection.report_count(),
        start.timestamp(),
        duration.num_seconds(),
        render(collection.aggregate_result()),
    ))
}

#[tokio::main]
async fn main() -> Result<()> {
    let flags = Flags::from_env()?;
    let path = flags.get("credential")?;
    let credential: PrivateCollectorCredential =
        serde_json::from_str(&std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?)
            .with_context(|| format!("parsing the collector credential {path}"))?;
    let params = Params {
        leader: Url::parse(flags.get("leader")?).context("--leader")?,
        task_id: TaskId::from_str(flags.get("task-id")?).context("--task-id")?,
        credential,
        interval: Interval::new(
            Time::from_seconds_since_epoch(flags.u64("batch-start")?),
            Duration::from_seconds(flags.u64("batch-duration")?),
        )?,
        timeout: StdDuration::from_secs(flags.u64_or("timeout", 120)?),
    };
    let out = match VdafSpec::parse(flags.get("vdaf")?)? {
        VdafSpec::Count => collect(&params, Prio3::new_count(2)?, |r| r.to_string()).await?,
        VdafSpec::Sum { bits } => collect(&params, Prio3::new_sum(2, bits)?, |r| r.to_string()).await?,
        VdafSpec::SumVec { bits, length, chunk_length } => {
            let vdaf = Prio3::new_sum_vec(2, bits, length, chunk_length)?;
            collect(&params, vdaf, |r| json_list(r)).await?
        }
        VdafSpec::Histogram { length, chunk_length } => {
            let vdaf = Prio3::new_histogram(2, length, chunk_length)?;
            collect(&params, vdaf, |r| json_list(r)).await?
        }
    };
    println!("{out}");
    Ok(())
}
