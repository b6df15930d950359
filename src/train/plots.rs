//! `plots/progress.png`: panels drawn from `metrics.jsonl` with plotters' bitmap backend.
//! Text goes through ab_glyph with an embedded DejaVu Sans (no system font lookup, so it draws
//! the same on any machine).
//!
//! 1. losses (policy, value, moves-left) over training steps;
//! 2. policy accuracy (on the training batches) over training steps;
//! 3. score against each ladder rung over generations;
//! 4. held-out policy top-1 agreement over generations (generation 0: the bootstrap network);
//! 5. held-out value losses (cross-entropy against outcomes, squared error against the deep
//!    search's score) over generations;
//! 6. Elo on the anchors' scale with its 95% interval over generations, and
//! 7. the same over wall-clock hours since the run's first metrics line.

use super::TrainError;
use crate::eval::plot::DrawError;
use plotters::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Points (x, y) of one named series.
pub type Series = (String, Vec<(f64, f64)>);

fn register() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if !crate::eval::plot::register_font() {
            tracing::warn!("plots: the embedded font did not load; labels may be missing");
        }
    });
}

/// The training series of the metrics: the last value logged at each step.
pub fn train_series(metrics: &[Value], field: &str) -> Vec<(f64, f64)> {
    let mut by_step: BTreeMap<u64, f64> = BTreeMap::new();
    for m in metrics.iter().filter(|m| m["kind"] == "train") {
        if let (Some(s), Some(v)) = (m["step"].as_u64(), m[field].as_f64()) {
            by_step.insert(s, v);
        }
    }
    by_step.into_iter().map(|(s, v)| (s as f64, v)).collect()
}

/// The ladder series: for each opponent, (generation, score).
pub fn ladder_series(metrics: &[Value]) -> Vec<Series> {
    let mut by: BTreeMap<String, BTreeMap<u64, f64>> = BTreeMap::new();
    for m in metrics.iter().filter(|m| m["kind"] == "generation") {
        let Some(g) = m["generation"].as_u64() else { continue };
        for r in m["ladder"].as_array().into_iter().flatten() {
            if let (Some(o), Some(s)) = (r["opponent"].as_str(), r["score"].as_f64()) {
                by.entry(o.to_string()).or_default().insert(g, s);
            }
        }
    }
    by.into_iter().map(|(k, v)| (k, v.into_iter().map(|(g, s)| (g as f64, s)).collect())).collect()
}

/// A per-generation series of a field of the `generation` and `heldout` lines, by generation.
pub fn generation_series(metrics: &[Value], field: &str) -> Vec<(f64, f64)> {
    let mut by: BTreeMap<u64, f64> = BTreeMap::new();
    for m in metrics.iter().filter(|m| m["kind"] == "generation" || m["kind"] == "heldout") {
        if let (Some(g), Some(v)) = (m["generation"].as_u64(), m[field].as_f64()) {
            by.insert(g, v);
        }
    }
    by.into_iter().map(|(g, v)| (g as f64, v)).collect()
}

/// The anchored Elo series (estimate, 95% low, 95% high) against generation, or against hours
/// since the first line with a `unix_time` when `by_time`.
pub fn elo_series(metrics: &[Value], by_time: bool) -> Vec<Series> {
    let t0 = metrics.iter().filter_map(|m| m["unix_time"].as_f64()).fold(f64::INFINITY, f64::min);
    let mut out: Vec<Series> = ["Elo", "95% low", "95% high"].iter().map(|n| (n.to_string(), Vec::new())).collect();
    for m in metrics.iter().filter(|m| m["kind"] == "generation") {
        let x = if by_time {
            match m["unix_time"].as_f64() {
                Some(t) => (t - t0) / 3600.0,
                None => continue,
            }
        } else {
            match m["generation"].as_u64() {
                Some(g) => g as f64,
                None => continue,
            }
        };
        let a = &m["anchored_elo"];
        for (i, key) in ["elo", "lo95", "hi95"].iter().enumerate() {
            if let Some(v) = a[key].as_f64() {
                out[i].1.push((x, v));
            }
        }
    }
    out.retain(|s| !s.1.is_empty());
    out
}

fn bounds(series: &[Series], min_y: Option<f64>, max_y: Option<f64>) -> (f64, f64, f64, f64) {
    let pts = series.iter().flat_map(|s| s.1.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        if y.is_finite() {
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
    }
    if x0 > x1 {
        (x0, x1) = (0.0, 1.0);
    }
    if y0 > y1 {
        (y0, y1) = (0.0, 1.0);
    }
    if x1 - x0 < 1e-9 {
        x1 = x0 + 1.0;
    }
    let (y0, y1) = (min_y.unwrap_or(y0), max_y.unwrap_or(y1));
    let pad = ((y1 - y0) * 0.05).max(1e-3);
    (x0, x1, y0 - pad, y1 + pad)
}

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

type Area<'a> = DrawingArea<BitMapBackend<'a>, plotters::coord::Shift>;

fn panel(
    area: &Area<'_>,
    title: &str,
    xlabel: &str,
    series: &[Series],
    y_range: (Option<f64>, Option<f64>),
    whole_x: bool,
) -> Result<(), DrawError> {
    let (x0, x1, y0, y1) = bounds(series, y_range.0, y_range.1);
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(50)
        .build_cartesian_2d(x0..x1, y0..y1)?;
    // Steps and generations are whole numbers: no fractional tick labels.
    let whole = |x: &f64| {
        if !whole_x {
            format!("{x:.2}")
        } else if x.fract().abs() < 1e-9 {
            format!("{x:.0}")
        } else {
            String::new()
        }
    };
    chart.configure_mesh().x_desc(xlabel).x_label_formatter(&whole).label_style(("sans-serif", 13)).draw()?;
    for (i, (name, pts)) in series.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))?
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 2, c.filled())))?;
    }
    if !series.is_empty() {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .label_font(("sans-serif", 13))
            .draw()?;
    }
    Ok(())
}

/// Draws `path` (a PNG) from the metrics.
pub fn draw_progress(path: &Path, metrics: &[Value]) -> Result<(), TrainError> {
    register();
    let err = |e: DrawError| TrainError::Plot { path: path.to_path_buf(), detail: e.to_string() };
    let losses: Vec<Series> = [("policy", "policy_loss"), ("value", "value_loss"), ("moves left", "moves_left_loss")]
        .iter()
        .map(|(n, f)| (n.to_string(), train_series(metrics, f)))
        .filter(|s| !s.1.is_empty())
        .collect();
    let acc = vec![("policy top-1".to_string(), train_series(metrics, "policy_accuracy"))];
    let ladder = ladder_series(metrics);
    let named = |n: &str, f: &str| (n.to_string(), generation_series(metrics, f));
    let top1: Vec<Series> = vec![named("held-out policy top-1", "heldout_policy_top1")];
    let value: Vec<Series> =
        vec![named("value CE vs outcome", "heldout_value_ce"), named("score MSE x10", "heldout_score_mse")]
            .into_iter()
            .map(|(n, v)| {
                let k = if n.starts_with("score") { 10.0 } else { 1.0 };
                (n, v.into_iter().map(|(x, y)| (x, y * k)).collect())
            })
            .collect();
    let (elo_g, elo_t) = (elo_series(metrics, false), elo_series(metrics, true));
    // Drawn into a temporary file, then renamed (a reader never sees half a PNG).
    crate::fsutil::write_atomic_via(
        path,
        |tmp| {
            let root = BitMapBackend::new(tmp, (1400, 1400)).into_drawing_area();
            root.fill(&WHITE).map_err(err)?;
            let areas = root.split_evenly((4, 2));
            panel(&areas[0], "Training losses", "step", &losses, (Some(0.0), None), true).map_err(err)?;
            panel(&areas[1], "Policy accuracy (training batches)", "step", &acc, (Some(0.0), Some(1.0)), true)
                .map_err(err)?;
            panel(&areas[2], "Score against the ladder", "generation", &ladder, (Some(0.0), Some(1.0)), true)
                .map_err(err)?;
            panel(&areas[3], "Held-out policy agreement", "generation", &top1, (None, None), true).map_err(err)?;
            panel(&areas[4], "Held-out value losses", "generation", &value, (None, None), true).map_err(err)?;
            panel(&areas[5], "Elo on the anchors' scale (95%)", "generation", &elo_g, (None, None), true)
                .map_err(err)?;
            panel(&areas[6], "Elo against wall time", "hours", &elo_t, (None, None), false).map_err(err)?;
            root.present().map_err(err)
        },
        |e| TrainError::io(path, e),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_progress_plot_is_a_png() {
        let t = tempfile::tempdir().unwrap();
        let mut m = Vec::new();
        for s in 0..20u64 {
            let x = s as f64;
            m.push(json!({"kind": "train", "step": s * 10, "policy_loss": 4.0 - x * 0.1, "value_loss": 1.1 - x * 0.02, "moves_left_loss": 0.3, "policy_accuracy": x / 40.0}));
        }
        for g in 1..5u64 {
            m.push(json!({"kind": "generation", "generation": g, "ladder": [{"opponent": "random", "score": 0.5 + g as f64 * 0.1}, {"opponent": "ab:depth=1", "score": g as f64 * 0.05}],
                "heldout_policy_top1": 0.2 + g as f64 * 0.01, "heldout_value_ce": 0.9, "heldout_score_mse": 0.05,
                "unix_time": 1000.0 + g as f64 * 600.0,
                "anchored_elo": {"elo": g as f64 * 20.0, "lo95": g as f64 * 20.0 - 80.0, "hi95": null, "games": 40.0}}));
        }
        assert_eq!(generation_series(&m, "heldout_policy_top1").len(), 4);
        let e = elo_series(&m, true);
        assert_eq!(e.len(), 2, "no upper bounds: two series");
        assert_eq!(e[0].1[0], (0.0, 20.0));
        assert!((e[0].1[3].0 - 0.5).abs() < 1e-9, "hours since the first line");
        let p = t.path().join("progress.png");
        draw_progress(&p, &m).unwrap();
        let bytes = std::fs::read(&p).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        // Empty metrics draw too (a new run).
        draw_progress(&p, &[]).unwrap();
        if let Ok(dir) = std::env::var("FIVEUP_KEEP_PLOT") {
            draw_progress(&Path::new(&dir).join("progress.png"), &m).unwrap();
        }
    }
}
