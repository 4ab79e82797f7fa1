//! Every stored position of a solved game as rows of a table: what `nana export` writes (Apache
//! Parquet or CSV) and what the Python package hands to pyarrow and pandas (Arrow record batches
//! in the IPC stream format), so that a researcher can ask DuckDB or pandas about the whole
//! solution rather than one position at a time.
//!
//! A row is a position whose value the table stores: a legal position that its index entry
//! stands for ([`ProbeRules::unindex`]), whose value the rules do not decide before a lookup
//! ([`ProbeRules::value_by_rules`]) and whose entry is not unused. So the rows of a table are as
//! many as its wins, losses and draws (`nana stats`). Its columns ([`COLUMNS`]):
//!
//! | column | type | what |
//! |---|---|---|
//! | `fen` | string | the game's string form of the position, as `nana query` reads and prints it |
//! | `side_to_move` | string | the player to move, by the explorer's name (`black`, `white`; `first`, `second`) |
//! | `category` | string | `win`, `loss` or `draw`, for the side to move |
//! | `dtm` | uint16, null for a draw | the distance to mate in plies |
//! | `best_move` | string, null where the game is over | the best move in the machine notation (the JSON answer's `best_move`, `uci`) |
//! | `hand` | string | the pieces in hand, the first player's (upper case) then the second's (lower case), each letter as often as it is held; empty for none |
//! | `winning_moves` | uint16 | how many of the position's moves win for the side to move (0 where the game is over) |
//! | `drawing_moves` | uint16 | how many of its moves draw |
//!
//! Every value is the probe's ([`Probe::value`], [`Probe::best_move_and_counts`]), so a row
//! says what `nana query --json` says of its position (the move counts: how many of its moves
//! have the category `loss`, and `draw`, after them). Rows come in index order, a batch of index entries
//! at a time, each batch's positions valued in parallel. A row needs the values of the positions
//! its moves lead to, all over the index: a compressed file's entries are read through a cache
//! of decoded pages of a fixed budget ([`Pages`]), never decoded all at once, so memory does not
//! grow with the table nor with the number of rows.

mod pages;

pub use pages::{PageStats, Paged, Pages, DEFAULT_BUDGET};

use std::ops::Range;
use std::sync::Arc;

use arrow_array::builder::{StringBuilder, StringDictionaryBuilder, UInt16Builder};
use arrow_array::types::Int8Type;
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use nana_engine::Category;
use nana_front::FrontRules;
use nana_probe::table::{Source, Table, TableError};
use nana_probe::{Probe, ProbeError};
use rayon::prelude::*;

/// The columns of a row, in order.
pub const COLUMNS: [&str; 8] =
    ["fen", "side_to_move", "category", "dtm", "best_move", "hand", "winning_moves", "drawing_moves"];

/// How many index entries a batch covers: a batch's rows are valued in parallel, then written.
pub const BATCH_ENTRIES: u64 = 1 << 18;

/// Index entries per piece of work of a batch's parallel valuing.
const PIECE: u64 = 1 << 12;

/// Rows per Parquet row group (the writer holds one group's encoded pages in memory).
#[cfg(feature = "files")]
const ROW_GROUP: usize = 1 << 20;

/// One stored position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub fen: String,
    pub side_to_move: &'static str,
    pub category: Category,
    /// `None` for a draw.
    pub dtm: Option<u16>,
    /// In the machine notation; `None` where the game is over.
    pub best_move: Option<String>,
    pub hand: String,
    /// How many moves win for the side to move, and how many draw.
    pub winning_moves: u16,
    pub drawing_moves: u16,
}

/// The row of index entry `index`, `None` where the table stores no position there; an error
/// where the table cannot be read there (a damaged block) or contradicts the rules.
pub fn row<R: FrontRules>(probe: &Probe<'_, R>, index: u64) -> Result<Option<Row>, ProbeError> {
    let game = probe.game();
    let Some(pos) = game.unindex(index) else { return Ok(None) };
    if game.value_by_rules(&pos).is_some() {
        return Ok(None);
    }
    let value = match probe.value(&pos) {
        Ok(value) => value,
        Err(ProbeError::Unused { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let (best, counts) = probe.best_move_and_counts(&pos)?;
    let best_move = best.map(|m| game.machine_notation(&pos, m.mv));
    let board = game.board(&pos);
    let mut hand = String::new();
    for piece in board.hands.iter().flat_map(|h| &h.pieces) {
        hand.extend(std::iter::repeat_n(piece.code, usize::from(piece.count)));
    }
    Ok(Some(Row {
        fen: game.position_string(&pos),
        side_to_move: board.side_to_move,
        category: value.category(),
        dtm: value.dtm().map(|d| d.0),
        best_move,
        hand,
        winning_moves: counts.winning,
        drawing_moves: counts.drawing,
    }))
}

/// The rows of the index entries `range`, in index order, valued in parallel (on the current
/// rayon pool).
pub fn rows<R: FrontRules>(probe: &Probe<'_, R>, range: Range<u64>) -> Result<Vec<Row>, ProbeError> {
    let pieces: Vec<Range<u64>> = (range.start..range.end)
        .step_by(PIECE as usize)
        .map(|first| first..(first + PIECE).min(range.end))
        .collect();
    let done: Result<Vec<Vec<Row>>, ProbeError> = pieces
        .into_par_iter()
        .map(|piece| piece.filter_map(|i| row(probe, i).transpose()).collect())
        .collect();
    Ok(done?.into_iter().flatten().collect())
}

/// The Arrow schema of the rows ([`COLUMNS`]). `side_to_move` and `category` are dictionary
/// columns: a few distinct strings each.
pub fn schema() -> SchemaRef {
    let dictionary = DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8));
    Arc::new(Schema::new(vec![
        Field::new("fen", DataType::Utf8, false),
        Field::new("side_to_move", dictionary.clone(), false),
        Field::new("category", dictionary, false),
        Field::new("dtm", DataType::UInt16, true),
        Field::new("best_move", DataType::Utf8, true),
        Field::new("hand", DataType::Utf8, false),
        Field::new("winning_moves", DataType::UInt16, false),
        Field::new("drawing_moves", DataType::UInt16, false),
    ]))
}

/// The rows as one Arrow record batch of [`schema`].
pub fn record_batch(rows: &[Row]) -> RecordBatch {
    let mut fen = StringBuilder::new();
    let mut side = StringDictionaryBuilder::<Int8Type>::new();
    let mut category = StringDictionaryBuilder::<Int8Type>::new();
    let mut dtm = UInt16Builder::with_capacity(rows.len());
    let mut best = StringBuilder::new();
    let mut hand = StringBuilder::new();
    let mut winning = UInt16Builder::with_capacity(rows.len());
    let mut drawing = UInt16Builder::with_capacity(rows.len());
    for r in rows {
        fen.append_value(&r.fen);
        side.append_value(r.side_to_move);
        category.append_value(r.category.as_str());
        dtm.append_option(r.dtm);
        best.append_option(r.best_move.as_deref());
        hand.append_value(&r.hand);
        winning.append_value(r.winning_moves);
        drawing.append_value(r.drawing_moves);
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(fen.finish()),
        Arc::new(side.finish()),
        Arc::new(category.finish()),
        Arc::new(dtm.finish()),
        Arc::new(best.finish()),
        Arc::new(hand.finish()),
        Arc::new(winning.finish()),
        Arc::new(drawing.finish()),
    ];
    RecordBatch::try_new(schema(), columns).expect("columns of the schema's types and one length")
}

/// A record batch in the Arrow IPC stream format (a schema message, the batch, the end): what
/// `pyarrow.ipc.open_stream` reads.
pub fn ipc_stream(batch: &RecordBatch) -> Result<Vec<u8>, ExportError> {
    let mut bytes = Vec::new();
    let mut writer = arrow_ipc::writer::StreamWriter::try_new(&mut bytes, &batch.schema())
        .map_err(|e| ExportError::Encode(e.to_string()))?;
    writer.write(batch).map_err(|e| ExportError::Encode(e.to_string()))?;
    writer.finish().map_err(|e| ExportError::Encode(e.to_string()))?;
    drop(writer);
    Ok(bytes)
}

/// The file formats of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Apache Parquet, Snappy-compressed, in row groups of about a million rows.
    Parquet,
    /// Comma-separated values with a header line; an empty field for a null.
    Csv,
}

/// Why an export stopped.
#[derive(Debug)]
pub enum ExportError {
    /// A lookup failed: a damaged block of the table file, or a table that contradicts the rules.
    Probe(ProbeError),
    /// Writing the output failed.
    Write(std::io::Error),
    /// The Parquet or Arrow encoder refused the rows.
    Encode(String),
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::Probe(e) => write!(f, "{e}"),
            ExportError::Write(e) => write!(f, "{e}"),
            ExportError::Encode(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ExportError {}

impl From<ProbeError> for ExportError {
    fn from(e: ProbeError) -> Self {
        ExportError::Probe(e)
    }
}

#[cfg(feature = "files")]
/// Writes every row of the table `probe` reads to `out` in `format`, a batch of index entries at
/// a time, calling `progress` with the number of index entries done after each batch; returns
/// the number of rows written.
pub fn write<R: FrontRules>(
    probe: &Probe<'_, R>,
    format: Format,
    out: impl std::io::Write + Send,
    progress: &dyn Fn(u64),
) -> Result<u64, ExportError> {
    let size = probe.game().size();
    let batches =
        (0..size).step_by(BATCH_ENTRIES as usize).map(|first| first..(first + BATCH_ENTRIES).min(size));
    let mut written = 0;
    match format {
        Format::Parquet => {
            use parquet::arrow::ArrowWriter;
            use parquet::basic::Compression;
            use parquet::file::properties::WriterProperties;
            let props = WriterProperties::builder()
                .set_compression(Compression::SNAPPY)
                .set_max_row_group_row_count(Some(ROW_GROUP))
                .build();
            let mut writer = ArrowWriter::try_new(out, schema(), Some(props))
                .map_err(|e| ExportError::Encode(e.to_string()))?;
            for range in batches {
                let len = range.end - range.start;
                let rows = rows(probe, range)?;
                written += rows.len() as u64;
                writer.write(&record_batch(&rows)).map_err(parquet_error)?;
                progress(len);
            }
            writer.close().map_err(parquet_error)?;
        }
        Format::Csv => {
            use std::io::Write;
            let mut out = std::io::BufWriter::new(out);
            writeln!(out, "{}", COLUMNS.join(",")).map_err(ExportError::Write)?;
            for range in batches {
                let len = range.end - range.start;
                for r in rows(probe, range)? {
                    let dtm = r.dtm.map(|d| d.to_string()).unwrap_or_default();
                    let (winning, drawing) = (r.winning_moves.to_string(), r.drawing_moves.to_string());
                    let fields = [
                        r.fen.as_str(),
                        r.side_to_move,
                        r.category.as_str(),
                        &dtm,
                        r.best_move.as_deref().unwrap_or(""),
                        &r.hand,
                        &winning,
                        &drawing,
                    ];
                    let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
                    writeln!(out, "{}", line.join(",")).map_err(ExportError::Write)?;
                    written += 1;
                }
                progress(len);
            }
            out.flush().map_err(ExportError::Write)?;
        }
    }
    Ok(written)
}

#[cfg(feature = "files")]
fn parquet_error(e: parquet::errors::ParquetError) -> ExportError {
    match e {
        parquet::errors::ParquetError::External(e) => match e.downcast::<std::io::Error>() {
            Ok(io) => ExportError::Write(*io),
            Err(e) => ExportError::Encode(e.to_string()),
        },
        e => ExportError::Encode(e.to_string()),
    }
}

#[cfg(feature = "files")]
/// A CSV field: quoted (its quotes doubled) where it holds a comma, a quote or a line break.
fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// A probe that reads `table`'s entries from memory, every block of a file decoded (and checked)
/// first, its don't-care entries marked unused again: the reference that rows read through
/// [`Pages`] are checked against. Its memory is the table's entries, one byte or two per index
/// entry.
pub fn probe_in_memory<R: FrontRules>(table: &Table<R>) -> Result<Probe<'_, R>, Box<TableError>> {
    let entries = table.try_entries().map_err(Box::new)?;
    Ok(Probe::with_width(*table.game(), entries, table.width())
        .expect("the size was checked when the table was opened"))
}

/// The pages an export of `table` reads a compressed file's entries through, within `budget`
/// bytes shared by the threads of the current rayon pool; `None` for a plain file or a solve,
/// whose entries are read where they are.
pub fn pages<R: FrontRules>(table: &Table<R>, budget: u64) -> Option<Pages> {
    match table.source() {
        Source::File(file) => Pages::new(file, budget, rayon::current_num_threads()),
        Source::Memory(_) => None,
    }
}

/// Calls `f` with a probe for an export of `table`: a compressed file's entries read through
/// `pages` (made by [`Pages::new`] for that file), a plain file's or a solve's where they are.
pub fn with_probe<R: FrontRules, T>(
    table: &Table<R>,
    pages: Option<&Pages>,
    f: impl FnOnce(&Probe<'_, R>) -> T,
) -> T {
    match (table.source(), pages) {
        (Source::File(file), Some(pages)) => {
            let paged = pages.of(file);
            let probe = Probe::of_reader(*table.game(), file, &paged)
                .expect("the size was checked when the table was opened");
            f(&probe)
        }
        _ => f(&table.probe()),
    }
}

/// The row count a table's statistics give: its wins, losses and draws.
pub fn expected_rows(stats: &nana_engine::Stats) -> u64 {
    stats.wins + stats.losses + stats.draws
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "files")]
    #[test]
    fn csv_fields_are_quoted_only_where_needed() {
        assert_eq!(csv_field("1k1/1SC/1K1 b RB 1"), "1k1/1SC/1K1 b RB 1");
        assert_eq!(csv_field(""), "");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    #[test]
    fn the_schema_has_the_columns_in_order() {
        let names: Vec<String> = schema().fields().iter().map(|f| f.name().clone()).collect();
        assert_eq!(names, COLUMNS);
    }
}
