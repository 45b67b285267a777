//! Draw a [`ScreenModel`] with ratatui (any backend: the crossterm terminal, or the test
//! backend the rendering tests compare against committed buffers).
//!
//! Layout: a title line; the game on the left (the map with its legend and the text box, or
//! the battle: both battlers with HP bars, the battle log, the menu); on the right the mods'
//! log lines above the transcript's latest lines; at the bottom a message line and the key
//! bindings. Map cells are two columns wide; the view follows the player.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Direction as LDir, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use pallet_engine::world::tileset::CellKind;
use pallet_engine::world::Direction;

use super::screen::{BattleView, Glyph, ListView, MapView, MonPanel, ScreenModel, View};
use super::session::BATTLE_ITEMS;

/// The smallest terminal the front end draws in.
pub const MIN_WIDTH: u16 = 64;
pub const MIN_HEIGHT: u16 = 20;

/// What one map cell looks like (two columns) and its style.
fn cell_look(g: Glyph) -> (&'static str, Style) {
    let s = Style::default();
    match g {
        Glyph::Cell(CellKind::Floor) => (". ", s.fg(Color::DarkGray)),
        Glyph::Cell(CellKind::Grass) => ("\"\"", s.fg(Color::Green)),
        Glyph::Cell(CellKind::Door) => ("++", s.fg(Color::Magenta)),
        Glyph::Cell(CellKind::Water) => ("~~", s.fg(Color::Blue)),
        Glyph::Cell(CellKind::Solid) => ("##", s.fg(Color::Gray)),
        Glyph::Player(d) => (
            match d {
                Direction::Up => "@^",
                Direction::Down => "@v",
                Direction::Left => "@<",
                Direction::Right => "@>",
            },
            s.fg(Color::Yellow).add_modifier(Modifier::BOLD),
        ),
        Glyph::Npc => ("&&", s.fg(Color::Cyan).add_modifier(Modifier::BOLD)),
        Glyph::Sign => ("??", s.fg(Color::White)),
        Glyph::Warp => ("==", s.fg(Color::Magenta)),
    }
}

/// The legend line under the map.
const LEGEND: &str =
    "@v you  && NPC  ?? sign  == warp  ++ door  . floor  \"\" grass  ~~ water  ## wall";

/// Draw the whole screen.
pub fn draw(frame: &mut Frame, model: &ScreenModel) {
    let area = frame.area();
    draw_into(area, frame.buffer_mut(), model);
}

/// Draw into a buffer region (what [`draw`] does on a frame).
pub fn draw_into(area: Rect, buf: &mut Buffer, model: &ScreenModel) {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let msg = format!(
            "The terminal is too small ({}x{}): pallet play needs {MIN_WIDTH}x{MIN_HEIGHT}. \
             Enlarge it, or press q to quit.",
            area.width, area.height
        );
        Paragraph::new(msg)
            .wrap(Wrap { trim: true })
            .render_ref_to(area, buf);
        return;
    }
    let rows = Layout::default()
        .direction(LDir::Vertical)
        .constraints([
            Constraint::Length(1),
            Constraint::Min(5),
            Constraint::Length(1),
            Constraint::Length(2),
        ])
        .split(area);
    Paragraph::new(Line::from(Span::styled(
        format!(" pallet play  {}", model.title),
        Style::default().add_modifier(Modifier::REVERSED),
    )))
    .render_ref_to(rows[0], buf);
    let side_w = (area.width / 3).clamp(24, 44);
    let body = Layout::default()
        .direction(LDir::Horizontal)
        .constraints([Constraint::Min(30), Constraint::Length(side_w)])
        .split(rows[1]);
    match &model.view {
        View::World {
            map,
            text,
            menu,
            sub,
        } => draw_world(
            body[0],
            buf,
            map,
            text.as_deref(),
            menu.as_ref(),
            sub.as_ref(),
        ),
        View::Battle(b) => draw_battle(body[0], buf, b),
        View::Empty => Paragraph::new("no overworld").render_ref_to(body[0], buf),
    }
    let side = Layout::default()
        .direction(LDir::Vertical)
        .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
        .split(body[1]);
    tail_pane(side[0], buf, " mod log ", &model.mod_log);
    tail_pane(side[1], buf, " events ", &model.events);
    if let Some(m) = &model.message {
        Paragraph::new(Span::styled(
            format!(" {m}"),
            Style::default().fg(Color::Yellow),
        ))
        .render_ref_to(rows[2], buf);
    }
    let mut spans = Vec::new();
    for (k, v) in &model.bindings {
        spans.push(Span::styled(
            format!(" {k}"),
            Style::default().add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::raw(format!(" {v} ")));
    }
    Paragraph::new(Line::from(spans))
        .wrap(Wrap { trim: true })
        .render_ref_to(rows[3], buf);
    if let Some(lines) = &model.dialog {
        let w = lines
            .iter()
            .map(|l| l.chars().count() as u16)
            .max()
            .unwrap_or(10)
            .saturating_add(4)
            .min(area.width);
        let h = (lines.len() as u16 + 2).min(area.height);
        let r = Rect {
            x: area.x + (area.width - w) / 2,
            y: area.y + (area.height - h) / 2,
            width: w,
            height: h,
        };
        Clear.render_ref_to(r, buf);
        Paragraph::new(
            lines
                .iter()
                .map(|l| Line::from(l.as_str()))
                .collect::<Vec<_>>(),
        )
        .block(Block::default().borders(Borders::ALL))
        .render_ref_to(r, buf);
    }
}

/// Small shim: render a widget by value into a buffer region.
trait RenderTo {
    fn render_ref_to(self, area: Rect, buf: &mut Buffer);
}

impl<W: ratatui::widgets::Widget> RenderTo for W {
    fn render_ref_to(self, area: Rect, buf: &mut Buffer) {
        self.render(area, buf);
    }
}

/// The last lines of `lines` that fit, in a bordered pane.
fn tail_pane(area: Rect, buf: &mut Buffer, title: &str, lines: &[String]) {
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(area);
    block.render_ref_to(area, buf);
    let n = inner.height as usize;
    let w = usize::from(inner.width.max(1));
    // Wrap by characters (continuation lines indented), then keep the tail that fits.
    let mut wrapped: Vec<String> = Vec::new();
    for l in &lines[lines.len().saturating_sub(n)..] {
        let chars: Vec<char> = l.chars().collect();
        let mut first = true;
        let mut rest: &[char] = &chars;
        while first || !rest.is_empty() {
            let room = if first { w } else { w.saturating_sub(2).max(1) };
            let take = room.min(rest.len());
            let piece: String = rest[..take].iter().collect();
            wrapped.push(if first { piece } else { format!("  {piece}") });
            rest = &rest[take..];
            first = false;
        }
    }
    let shown: Vec<Line> = wrapped[wrapped.len().saturating_sub(n)..]
        .iter()
        .map(|l| Line::from(l.clone()))
        .collect();
    Paragraph::new(shown).render_ref_to(inner, buf);
}

fn draw_world(
    area: Rect,
    buf: &mut Buffer,
    map: &MapView,
    text: Option<&str>,
    menu: Option<&ListView>,
    sub: Option<&ListView>,
) {
    let text_h = if text.is_some() { 6 } else { 0 };
    let parts = Layout::default()
        .direction(LDir::Vertical)
        .constraints([
            Constraint::Min(3),
            Constraint::Length(2),
            Constraint::Length(text_h),
        ])
        .split(area);
    let block = Block::default().borders(Borders::ALL).title(format!(
        " {} ({},{}) ",
        map.name, map.player.0, map.player.1
    ));
    let inner = block.inner(parts[0]);
    block.render_ref_to(parts[0], buf);
    draw_map(inner, buf, map);
    Paragraph::new(Span::styled(LEGEND, Style::default().fg(Color::DarkGray)))
        .wrap(Wrap { trim: true })
        .render_ref_to(parts[1], buf);
    if let Some(t) = text {
        let lines: Vec<Line> = t.lines().map(Line::from).collect();
        Clear.render_ref_to(parts[2], buf);
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::default().borders(Borders::ALL).title(" text "))
            .render_ref_to(parts[2], buf);
    }
    if let Some(m) = menu {
        let w = 14.min(inner.width);
        let h = (m.items.len() as u16 + 2).min(inner.height);
        let r = Rect {
            x: inner.x + inner.width - w,
            y: inner.y,
            width: w,
            height: h,
        };
        list_box(r, buf, m);
        if let Some(s) = sub {
            let w2 = 36.min(inner.width.saturating_sub(w));
            let h2 = (s.items.len().max(1) as u16 + 2).min(inner.height);
            let r2 = Rect {
                x: r.x.saturating_sub(w2),
                y: inner.y,
                width: w2,
                height: h2,
            };
            list_box(r2, buf, s);
        }
    }
}

/// A bordered list with a `▶` cursor (an empty list says so).
fn list_box(area: Rect, buf: &mut Buffer, l: &ListView) {
    Clear.render_ref_to(area, buf);
    let mut lines: Vec<Line> = l
        .items
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if i == l.cursor {
                Line::from(Span::styled(
                    format!("▶{s}"),
                    Style::default().add_modifier(Modifier::BOLD),
                ))
            } else {
                Line::from(format!(" {s}"))
            }
        })
        .collect();
    if lines.is_empty() {
        lines.push(Line::from(" (empty)"));
    }
    // Keep the cursor in view in a short box.
    let room = area.height.saturating_sub(2) as usize;
    let skip = if room > 0 && l.cursor >= room {
        l.cursor + 1 - room
    } else {
        0
    };
    Paragraph::new(lines.into_iter().skip(skip).collect::<Vec<_>>())
        .block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" {} ", l.title)),
        )
        .render_ref_to(area, buf);
}

/// The map, two columns per cell, the view centred on the player (clamped to the map).
fn draw_map(area: Rect, buf: &mut Buffer, map: &MapView) {
    let cols = u32::from(area.width / 2);
    let rows = u32::from(area.height);
    if cols == 0 || rows == 0 {
        return;
    }
    let origin = |p: u32, view: u32, size: u32| -> u32 {
        if size <= view {
            0
        } else {
            p.saturating_sub(view / 2).min(size - view)
        }
    };
    let ox = origin(map.player.0, cols, map.width);
    let oy = origin(map.player.1, rows, map.height);
    // A map smaller than the view is centred.
    let pad_x = (cols.saturating_sub(map.width) / 2) as u16 * 2;
    let pad_y = (rows.saturating_sub(map.height) / 2) as u16;
    for vy in 0..rows.min(map.height) {
        for vx in 0..cols.min(map.width) {
            let (x, y) = (ox + vx, oy + vy);
            let (s, style) = cell_look(map.at(x, y));
            buf.set_string(
                area.x + pad_x + (vx as u16) * 2,
                area.y + pad_y + vy as u16,
                s,
                style,
            );
        }
    }
}

fn hp_bar(p: &MonPanel, width: usize) -> Line<'static> {
    let filled = if p.max_hp == 0 {
        0
    } else {
        (usize::from(p.hp) * width).div_ceil(usize::from(p.max_hp))
    };
    let ratio = f64::from(p.hp) / f64::from(p.max_hp.max(1));
    let color = if ratio > 0.5 {
        Color::Green
    } else if ratio > 0.2 {
        Color::Yellow
    } else {
        Color::Red
    };
    Line::from(vec![
        Span::raw("HP "),
        Span::styled("█".repeat(filled), Style::default().fg(color)),
        Span::styled(
            "░".repeat(width - filled.min(width)),
            Style::default().fg(Color::DarkGray),
        ),
        Span::raw(format!(" {:>3}/{:<3}", p.hp, p.max_hp)),
    ])
}

fn mon_panel(area: Rect, buf: &mut Buffer, title: &str, p: &MonPanel) {
    let status = if p.status.is_empty() {
        String::new()
    } else {
        format!("  {}", p.status)
    };
    let lines = vec![
        Line::from(Span::styled(
            format!("{}  L{}{status}", p.name, p.level),
            Style::default().add_modifier(Modifier::BOLD),
        )),
        hp_bar(p, 20),
    ];
    Paragraph::new(lines)
        .block(
            Block::default()
                .borders(Borders::ALL)
                .title(title.to_owned()),
        )
        .render_ref_to(area, buf);
}

fn draw_battle(area: Rect, buf: &mut Buffer, b: &BattleView) {
    let menu_h = match &b.list {
        Some(l) => (l.items.len().max(1) as u16 + 2).min(8),
        None => 4,
    };
    let parts = Layout::default()
        .direction(LDir::Vertical)
        .constraints([
            Constraint::Length(4),
            Constraint::Length(4),
            Constraint::Min(3),
            Constraint::Length(menu_h),
        ])
        .split(area);
    mon_panel(
        parts[0],
        buf,
        &format!(" {} · turn {} ", b.opponent, b.turn),
        &b.enemy,
    );
    mon_panel(parts[1], buf, " you ", &b.player);
    tail_pane(parts[2], buf, " battle ", &b.log);
    match (&b.list, b.main) {
        (Some(l), _) => list_box(parts[3], buf, l),
        (None, Some(c)) => {
            let cell = |i: usize| {
                let s = format!("{}{:<8}", if i == c { "▶" } else { " " }, BATTLE_ITEMS[i]);
                if i == c {
                    Span::styled(s, Style::default().add_modifier(Modifier::BOLD))
                } else {
                    Span::raw(s)
                }
            };
            let lines = vec![
                Line::from(vec![cell(0), Span::raw("  "), cell(1)]),
                Line::from(vec![cell(2), Span::raw("  "), cell(3)]),
            ];
            Paragraph::new(lines)
                .block(
                    Block::default()
                        .borders(Borders::ALL)
                        .title(" what will you do? "),
                )
                .render_ref_to(parts[3], buf);
        }
        (None, None) => {}
    }
}

/// A buffer as text, one line per row, trailing spaces trimmed (what the rendering tests
/// compare).
pub fn buffer_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in area.y..area.y + area.height {
        let mut line = String::new();
        for x in area.x..area.x + area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
