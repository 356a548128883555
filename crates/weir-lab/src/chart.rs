//! One SVG bar chart per group: the median req/s of every cell (bytes per idle connection for the
//! idle-connections scenario), void cells drawn as a VOID label with no bar. Plotters' SVG
//! backend writes text as SVG `<text>`, so no font files are needed.

use std::path::Path;

use plotters::prelude::*;

use crate::scenario::is_nginx;
use crate::summary::CellSummary;

const WIDTH: u32 = 900;
const ROW: u32 = 28;
const LEFT: i32 = 330;
const RIGHT_MARGIN: i32 = 130;
const TOP: i32 = 50;

pub fn draw(path: &Path, title: &str, cells: &[&CellSummary]) -> anyhow::Result<()> {
    let idle = cells
        .iter()
        .any(|cell| cell.idle_bytes_per_connection.is_some() || cell.tool.contains("idle"));
    let value = |cell: &CellSummary| {
        if idle {
            cell.idle_bytes_per_connection
        } else {
            cell.requests_per_second
        }
    };
    let unit = if idle {
        "bytes per idle connection"
    } else {
        "req/s (median)"
    };
    let height = TOP as u32 + ROW * cells.len() as u32 + 40;
    let root = SVGBackend::new(path, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let title_style = ("sans-serif", 18).into_font().color(&BLACK);
    root.draw(&Text::new(
        format!("{title} ({unit})"),
        (10, 12),
        title_style,
    ))?;

    let max = cells
        .iter()
        .filter_map(|cell| value(cell))
        .fold(0.0_f64, f64::max)
        .max(1.0);
    let span = (WIDTH as i32 - LEFT - RIGHT_MARGIN) as f64;
    let label_style = ("sans-serif", 13).into_font().color(&BLACK);
    for (index, cell) in cells.iter().enumerate() {
        let top = TOP + index as i32 * ROW as i32;
        let label = if cell.variant.is_empty() || idle {
            cell.gateway.clone()
        } else {
            format!(
                "{} [{}] {}",
                cell.gateway,
                cell.variant,
                short_tool(&cell.tool)
            )
        };
        root.draw(&Text::new(label, (10, top + 6), label_style.clone()))?;
        match value(cell) {
            Some(figure) if !cell.is_void() => {
                let length = (figure / max * span).round() as i32;
                let color = if cell.gateway.starts_with("weir") {
                    RGBColor(196, 78, 32)
                } else if is_nginx(&cell.gateway) {
                    RGBColor(40, 110, 60)
                } else {
                    RGBColor(90, 110, 150)
                };
                root.draw(&Rectangle::new(
                    [
                        (LEFT, top + 3),
                        (LEFT + length.max(1), top + ROW as i32 - 5),
                    ],
                    color.filled(),
                ))?;
                let ratio = match (idle, cell.rps_ratio, cell.idle_ratio) {
                    (false, Some(ratio), _) | (true, _, Some(ratio)) => {
                        format!("  {ratio:.2}x nginx")
                    }
                    _ => String::new(),
                };
                root.draw(&Text::new(
                    format!("{figure:.0}{ratio}"),
                    (LEFT + length.max(1) + 6, top + 6),
                    label_style.clone(),
                ))?;
            }
            _ => {
                let void_style = ("sans-serif", 13).into_font().color(&RED);
                root.draw(&Text::new("VOID", (LEFT + 4, top + 6), void_style))?;
            }
        }
    }
    root.present()?;
    Ok(())
}

/// Tables spell the tool out; in a chart's label the connection count is enough.
fn short_tool(tool: &str) -> String {
    tool.split_whitespace()
        .find(|part| part.starts_with("-c"))
        .unwrap_or(tool)
        .to_string()
}
