//! A PNG of tournament ratings: one row per player (best on top), the rating as a dot with its
//! 95% interval as an error bar. Text is drawn with an embedded DejaVu Sans font (through
//! ab_glyph), so no system font is needed.

use super::ratings::RatingReport;
use plotters::backend::DrawingBackend;
use plotters::drawing::DrawingAreaErrorKind;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::path::Path;
use std::sync::OnceLock;

/// Why a plot could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("plot {path}: {reason}")]
pub struct PlotError {
    /// The file.
    pub path: String,
    /// What failed.
    #[source]
    pub reason: PlotFault,
}

/// A drawing error of plotters' bitmap backend (the crate's PNG plots).
pub type DrawError = DrawingAreaErrorKind<<BitMapBackend<'static> as DrawingBackend>::ErrorType>;

/// What failed while drawing a plot.
#[derive(Debug, thiserror::Error)]
pub enum PlotFault {
    /// The embedded font could not be registered.
    #[error("the embedded font could not be loaded")]
    Font,
    /// Drawing or encoding failed.
    #[error(transparent)]
    Draw(#[from] DrawError),
    /// The temporary file could not be written or renamed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The font family name the embedded font is registered under.
pub const FONT: &str = "sans-serif";

/// Registers the embedded DejaVu Sans as plotters' [`FONT`] family (once per process; every plot
/// of the crate, ratings, training progress and piece values, draws its text with it, so none
/// needs a system font). False when the font could not be loaded.
pub fn register_font() -> bool {
    static OK: OnceLock<bool> = OnceLock::new();
    *OK.get_or_init(|| plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular()).is_ok())
}

/// Draws the ratings of `report` with error bars to the PNG `path`.
/// Drawn into a temporary file, then renamed ([`crate::fsutil::write_atomic_via`]).
pub fn plot_ratings(report: &RatingReport, path: &Path) -> Result<(), PlotError> {
    let fail = |reason: PlotFault| PlotError { path: path.display().to_string(), reason };
    crate::fsutil::write_atomic_via(path, |tmp| draw_ratings(report, tmp).map_err(fail), |e| fail(e.into()))
}

/// [`plot_ratings`] into `path` itself.
fn draw_ratings(report: &RatingReport, path: &Path) -> Result<(), PlotFault> {
    if !register_font() {
        return Err(PlotFault::Font);
    }
    let order = report.ranking();
    let n = order.len().max(1);
    let lo = order.iter().map(|&i| report.players[i].elo - report.players[i].pm95).fold(f64::INFINITY, f64::min);
    let hi = order.iter().map(|&i| report.players[i].elo + report.players[i].pm95).fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi.is_finite() && hi > lo { (lo, hi) } else { (-100.0, 100.0) };
    let pad = (hi - lo) * 0.08 + 1.0;
    let label_chars = report.players.iter().map(|p| p.name.chars().count()).max().unwrap_or(4);
    let label_width = (label_chars as u32 * 8 + 20).clamp(80, 720);
    let height = 110 + 42 * n as u32;
    let root = BitMapBackend::new(path, (640 + label_width, height)).into_drawing_area();
    let draw = || -> Result<(), DrawError> {
        root.fill(&WHITE)?;
        let names: Vec<String> = order.iter().map(|&i| report.players[i].name.clone()).collect();
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("Elo (95% interval), {} games", report.games), (FONT, 22))
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(label_width)
            .build_cartesian_2d((lo - pad)..(hi + pad), -0.5f64..(n as f64 - 0.5))?;
        chart
            .configure_mesh()
            .y_labels(n)
            .y_label_formatter(&|y| {
                let k = y.round();
                if (y - k).abs() < 1e-6 && k >= 0.0 && (k as usize) < names.len() {
                    names[names.len() - 1 - k as usize].clone()
                } else {
                    String::new()
                }
            })
            .x_desc("Elo")
            .label_style((FONT, 14))
            .disable_y_mesh()
            .draw()?;
        for (row, &i) in order.iter().enumerate() {
            let p = &report.players[i];
            let y = (n - 1 - row) as f64;
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(p.elo - p.pm95, y), (p.elo + p.pm95, y)],
                BLUE.stroke_width(2),
            )))?;
            for x in [p.elo - p.pm95, p.elo + p.pm95] {
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(x, y - 0.15), (x, y + 0.15)],
                    BLUE.stroke_width(2),
                )))?;
            }
            chart.draw_series(std::iter::once(Circle::new((p.elo, y), 5, RED.filled())))?;
            chart.draw_series(std::iter::once(Text::new(
                format!("{:+.0} ± {:.0}", p.elo, p.pm95),
                (p.elo, y + 0.3),
                (FONT, 13),
            )))?;
        }
        root.present()?;
        Ok(())
    };
    Ok(draw()?)
}
