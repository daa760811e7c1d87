//! Point arithmetic for protocols written in Python (`zeenot.cashlib`): many linear
//! combinations of checked points in one call. Not timed by the planner's cost models.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use zeenot_crypto::curve::Point;

use crate::{bj_point, bj_scalar, bj_xy};

/// `Σ k·P` for each row of terms `(k, i)`: `k` a decimal below 2^256, `i` an index into
/// `points` (decimal coordinates, each checked once: on the curve, in the prime-order subgroup).
/// Constant time in the scalars (they may be secret). At most 4,096 points and 4,096 terms.
#[pyfunction]
pub(crate) fn bj_lincomb(
    py: Python<'_>,
    points: Vec<(String, String)>,
    rows: Vec<Vec<(String, usize)>>,
) -> PyResult<Vec<(String, String)>> {
    const MAX: usize = 4096;
    let terms: usize = rows.iter().map(Vec::len).sum();
    if points.len() > MAX || terms > MAX {
        return Err(PyValueError::new_err("bj_lincomb: at most 4,096 points and 4,096 terms"));
    }
    let pts = points.iter().map(|(x, y)| bj_point(x, y)).collect::<PyResult<Vec<_>>>()?;
    let mut prepared = Vec::with_capacity(rows.len());
    for row in &rows {
        let mut bases = Vec::with_capacity(row.len());
        let mut scalars = Vec::with_capacity(row.len());
        for (k, i) in row {
            let p = pts.get(*i).ok_or_else(|| PyValueError::new_err(format!("bj_lincomb: no point {i}")))?;
            bases.push(*p);
            scalars.push(bj_scalar(k)?);
        }
        prepared.push((bases, scalars));
    }
    let sums: Vec<Point> = py.detach(|| prepared.iter().map(|(b, s)| Point::msm_ct(b, s)).collect());
    Ok(sums.iter().map(bj_xy).collect())
}
