//! Upload measurements to a DAP-09 leader with Divvi Up's `janus_client` 0.7.145.
//!
//! upload --leader URL --helper URL --task-id ID --vdaf "Prio3Sum bits=32"
//!        --time-precision SECONDS --measurements FILE [--time UNIX_SECONDS]
//!
//! The client fetches both aggregators' HPKE configs (`GET /hpke_config?task_id=`), shards each
//! measurement, seals the input shares and `PUT`s each report to `/tasks/{id}/reports`.
//! Prints `{"uploaded": N}` when every upload was acknowledged with a success status.

use anyhow::{Context, Result};
use janus_client::Client;
use janus_messages::{Duration, TaskId, Time};
use prio::vdaf::prio3::Prio3;
use std::{str::FromStr, time::SystemTime};
use url::Url;
use zeenot_janus_interop::{
    measurement_lines, parse_count, parse_u128, parse_usize, parse_vec, Flags, VdafSpec,
};

struct Params {
    leader: Url,
    helper: Url,
    task_id: TaskId,
    time_precision: Duration,
    time: Time,
}

async fn upload_all<V, F>(params: &Params, vdaf: V, text: &str, parse: F) -> Result<usize>
where
    V: prio::vdaf::Client<16>,
    F: Fn(&str) -> Result<V::Measurement>,
{
    let measurements = measurement_lines(text)
        .map(|(n, line)| parse(line).with_context(|| format!("measurement on line {n}")))
        .collect::<Result<Vec<_>>>()?;
    let client = Client::new(
        params.task_id,
        params.leader.clone(),
        params.helper.clone(),
        params.time_precision,
        vdaf,
    )
    .await
    .context("building the client (fetching the aggregators' HPKE configs)")?;
    for (i, measurement) in measurements.iter().enumerate() {
        client
            .upload_with_time(measurement, params.time)
            .await
            .with_context(|| format!("uploading measurement {}", i + 1))?;
    }
    Ok(measurements.len())
}

#[tokio::main]
async fn main() -> Result<()> {
    let flags = Flags::from_env()?;
    let now = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH)?.as_secs();
    let params = Params {
        leader: Url::parse(flags.get("leader")?).context("--leader")?,
        helper: Url::parse(flags.get("helper")?).context("--helper")?,
        task_id: TaskId::from_str(flags.get("task-id")?).context("--task-id")?,
        time_precision: Duration::from_seconds(flags.u64("time-precision")?),
        time: Time::from_seconds_since_epoch(flags.u64_or("time", now)?),
    };
    let path = flags.get("measurements")?;
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let uploaded = match VdafSpec::parse(flags.get("vdaf")?)? {
        VdafSpec::Count => upload_all(&params, Prio3::new_count(2)?, &text, parse_count).await?,
        VdafSpec::Sum { bits } => upload_all(&params, Prio3::new_sum(2, bits)?, &text, parse_u128).await?,
        VdafSpec::SumVec { bits, length, chunk_length } => {
            let vdaf = Prio3::new_sum_vec(2, bits, length, chunk_length)?;
            upload_all(&params, vdaf, &text, parse_vec).await?
        }
        VdafSpec::Histogram { length, chunk_length } => {
            let vdaf = Prio3::new_histogram(2, length, chunk_length)?;
            upload_all(&params, vdaf, &text, parse_usize).await?
        }
    };
    println!("{{\"uploaded\": {uploaded}}}");
    Ok(())
}
