//! Compares candidate codecs on a tablebase's entries, cut into blocks as the file format cuts
//! them: the compressed size, the time to compress every block on one thread, and the time to
//! decode every block once (from LZ4 with `lz4_flex`, from zstd with the pure-Rust `ruzstd` and
//! with the C library). Each decoded block is compared with the original. Prints one Markdown
//! row per codec and block size.
//!
//! `cargo run --release --manifest-path crates/tablebase/codecs/Cargo.toml -- FILE.tb`, with
//! `SIZES=4096,16384` (entries per block) and `LEVELS=3,19` (zstd levels, none if empty) to
//! choose. The entries are those the file stores: a file whose unused entries are don't-care
//! (`nana solve` writes them so) has them filled already. With `FILL_UNUSED=1`, each entry of a
//! 1-byte table that still reads unused (255) is first replaced by the entry before it (0 at the
//! start), across blocks. With `ENTROPY=1` it first prints the entries' empirical entropy with
//! no context and with the one or two entries before as context (within a block of the first
//! size): the bytes an ideal coder of each such model would need, the model itself not counted;
//! and for each block size the bytes of an ideal coder of each block's own value frequencies and
//! of a fixed-width code of its values ranked. With `TRANSFORM=wins` (or `losses`, `wdl`) the
//! entries are first rewritten as a candidate value coding stores them (see `transform`). With
//! `DICT=1024,2048` (entries per block) it also trains a zstd dictionary on the blocks of each
//! size and compresses them with it.
//!
//! With `RAW=1`, FILE is not a table but a stream of 1-byte entries, 255 for a don't-care
//! entry, filled per block of each size as the writer fills them: what
//! `crates/games/dobutsu/examples/reorder.rs` writes, a table's entries in another order. With
//! `SPLIT=4096,65536` (small, large) it first measures block sizes per part of the table: each
//! aligned run of `large` entries as one block or as blocks of `small`, chosen by several rules
//! (a run of one value, a run that compresses well, ...), at the first of `LEVELS` (6 if none):
//! bytes with an index of 12 bytes a block, and the time to decode the large blocks chosen.
//!
//! With `PARAMS=15:btopt:4:3:64,...` (a zstd level, then its strategy, search log, least match
//! and target length set over it, optionally then its chain log and hash log) it also
//! compresses the blocks of each size with each such setting, one row each, as the writer would
//! (its frames' flags as the writer sets them).
//!
//! Two candidates that change what a block holds: with `APART=1`, each block (1-byte entries)
//! is stored as its entries' outcomes (draw, loss, win, unused: one byte each) followed by the
//! distances of its losses, as one frame: win, loss or draw stored apart from the distance.
//! With `DROP_UNUSED=1` (with `RAW=1`), the stream's unused entries are removed before it is cut
//! into blocks: what a layout that stores used entries alone would compress (its reader would
//! find an entry's place from the rules), a bound on what any fill of them can reach.

use std::time::Instant;

fn list<T: std::str::FromStr + Clone>(var: &str, default: &[T]) -> Vec<T> {
    match std::env::var(var) {
        Ok(s) => s
            .split(',')
            .filter(|x| !x.is_empty())
            .map(|x| x.parse().ok().expect("a list of numbers"))
            .collect(),
        Err(_) => default.to_vec(),
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: tablebase-codecs FILE.tb");
    let raw = std::env::var_os("RAW").is_some();
    let (mut entries, width) = if raw {
        (std::fs::read(&path).expect("a readable file"), 1)
    } else {
        let table = nana_tablebase::Tablebase::open(std::path::Path::new(&path)).expect("a valid table");
        (table.entries().expect("decodable entries").into_owned(), table.header().entry_width as usize)
    };
    if raw && std::env::var_os("DROP_UNUSED").is_some() {
        entries.retain(|&v| v != 255);
    }
    prepare(&mut entries, width);
    let sizes: Vec<usize> = list("SIZES", &[4096, 16384, 65536]);
    let levels: Vec<i32> = list("LEVELS", &[3, 19]);
    println!("{path}: {} entries of {width} byte(s)", entries.len() / width);
    // A raw stream's don't-care entries (255) filled per block of `block` entries, as the writer
    // fills them.
    let filled = |block: usize| -> Vec<u8> {
        let mut e = entries.clone();
        if raw {
            e.chunks_mut(block).for_each(fill_unused);
        }
        e
    };
    if std::env::var_os("ENTROPY").is_some() {
        entropy(&filled(sizes[0]), sizes[0] * width);
        for &block in &sizes {
            block_entropy(&filled(block), block * width);
        }
    }
    let split: Vec<usize> = list("SPLIT", &[]);
    if let [small, large] = split[..] {
        split_blocks(&entries, raw, small, large, list("LEVELS", &[6])[0]);
    }
    for &block in list::<usize>("DICT", &[]).iter() {
        dictionary(&filled(block), block * width, list("LEVELS", &[6])[0]);
    }
    compare_codecs(&filled, &sizes, &levels, width, entries.len());
    let params: Vec<String> = list("PARAMS", &[]);
    for &block in &sizes {
        let entries = filled(block);
        for setting in &params {
            zstd_setting(&entries, block * width, setting);
        }
    }
}

/// One Markdown row: the blocks of `block_bytes` compressed with a zstd `setting`
/// (`level:strategy:search log:least match:target length`), each decoded again and compared.
fn zstd_setting(entries: &[u8], block_bytes: usize, setting: &str) {
    use zstd::stream::raw::CParameter;
    use zstd::zstd_safe::Strategy;
    let parts: Vec<&str> = setting.split(':').collect();
    let (&[level, strategy, search, least, target], logs) = parts.split_at(5.min(parts.len())) else {
        panic!("PARAMS: level:strategy:searchlog:minmatch:targetlength[:chainlog:hashlog], not {setting}")
    };
    let strategy = match strategy {
        "lazy2" => Strategy::ZSTD_lazy2,
        "btlazy2" => Strategy::ZSTD_btlazy2,
        "btopt" => Strategy::ZSTD_btopt,
        "btultra" => Strategy::ZSTD_btultra,
        "btultra2" => Strategy::ZSTD_btultra2,
        _ => panic!("a strategy: lazy2, btlazy2, btopt, btultra, btultra2"),
    };
    let number = |x: &str| x.parse::<u32>().expect("a number");
    let mut compressor = zstd::bulk::Compressor::new(level.parse().expect("a level")).unwrap();
    for parameter in [
        CParameter::ContentSizeFlag(true),
        CParameter::ChecksumFlag(false),
        CParameter::DictIdFlag(false),
        CParameter::Strategy(strategy),
        CParameter::SearchLog(number(search)),
        CParameter::MinMatch(number(least)),
        CParameter::TargetLength(number(target)),
    ] {
        compressor.set_parameter(parameter).unwrap();
    }
    if let [chain, hash] = logs {
        compressor.set_parameter(CParameter::ChainLog(number(chain))).unwrap();
        compressor.set_parameter(CParameter::HashLog(number(hash))).unwrap();
    }
    let chunks = cut(entries, block_bytes);
    let start = Instant::now();
    let zs: Vec<Vec<u8>> = chunks.iter().map(|c| compressor.compress(c).unwrap()).collect();
    let seconds = start.elapsed().as_secs_f64();
    for (z, c) in zs.iter().zip(&chunks) {
        assert_eq!(zstd::bulk::decompress(z, 2 * block_bytes).unwrap(), *c);
    }
    let bytes: usize = zs.iter().map(Vec::len).sum();
    println!(
        "| zstd {setting} | {} bytes a block | {bytes} | compressed in {seconds:.2} s (one thread) |",
        block_bytes
    );
}

/// `entries` cut into blocks of `block_bytes`, each as a block stores it: its entries, or with
/// `APART` its outcomes, then its losses' distances (id 1's and id 2's values: 0 a draw, odd a
/// loss, even a win, 255 unused).
fn cut(entries: &[u8], block_bytes: usize) -> Vec<Vec<u8>> {
    let apart = std::env::var_os("APART").is_some();
    let outcome = |v: u8| match v {
        0 => 0,
        255 => 3,
        v if v % 2 == 1 => 1,
        _ => 2,
    };
    entries
        .chunks(block_bytes)
        .map(|block| {
            if !apart {
                return block.to_vec();
            }
            let mut stored: Vec<u8> = block.iter().map(|&v| outcome(v)).collect();
            stored.extend(block.iter().filter(|&&v| outcome(v) == 1));
            stored
        })
        .collect()
}

/// One Markdown row per codec and block size: LZ4, then zstd at each of `levels`, each decoded
/// block compared with the original; `filled` gives the entries as blocks of a size store them.
fn compare_codecs(
    filled: &dyn Fn(usize) -> Vec<u8>,
    sizes: &[usize],
    levels: &[i32],
    width: usize,
    total: usize,
) {
    println!("| codec | entries per block | bytes | of the entries | µs to decode a block | s to compress all (one thread) |");
    println!("|---|---:|---:|---:|---:|---:|");
    let row =
        |codec: &str, block: usize, bytes: usize, seconds: f64, blocks: usize, compress: Option<f64>| {
            let share = 100.0 * bytes as f64 / total as f64;
            let per_block = seconds * 1e6 / blocks as f64;
            let compress = compress.map_or(String::new(), |s| format!("{s:.2}"));
            println!("| {codec} | {block} | {bytes} | {share:.1} % | {per_block:.2} | {compress} |");
        };
    for &block in sizes {
        let chunks = cut(&filled(block), block * width);
        let start = Instant::now();
        let lz4: Vec<Vec<u8>> = chunks.iter().map(|c| lz4_flex::block::compress(c)).collect();
        let lz4_seconds = start.elapsed().as_secs_f64();
        let mut out = vec![0u8; 2 * block * width];
        let start = Instant::now();
        for (z, c) in lz4.iter().zip(&chunks) {
            let n = lz4_flex::block::decompress_into(z, &mut out).unwrap();
            assert_eq!(&out[..n], *c);
        }
        let seconds = start.elapsed().as_secs_f64();
        row(
            "LZ4 (`lz4_flex`)",
            block,
            lz4.iter().map(Vec::len).sum(),
            seconds,
            chunks.len(),
            Some(lz4_seconds),
        );
        for &level in levels {
            let start = Instant::now();
            let mut compressor = zstd::bulk::Compressor::new(level).unwrap();
            let zs: Vec<Vec<u8>> = chunks.iter().map(|c| compressor.compress(c).unwrap()).collect();
            let zstd_seconds = start.elapsed().as_secs_f64();
            let bytes = zs.iter().map(Vec::len).sum();
            let start = Instant::now();
            let mut decoder = ruzstd::decoding::FrameDecoder::new();
            for (z, c) in zs.iter().zip(&chunks) {
                let mut src: &[u8] = z;
                decoder.reset(&mut src).unwrap();
                decoder.decode_blocks(&mut src, ruzstd::decoding::BlockDecodingStrategy::All).unwrap();
                assert_eq!(&decoder.collect().unwrap()[..], *c);
            }
            let seconds = start.elapsed().as_secs_f64();
            row(&format!("zstd {level} (`ruzstd`)"), block, bytes, seconds, chunks.len(), Some(zstd_seconds));
            let start = Instant::now();
            for (z, c) in zs.iter().zip(&chunks) {
                assert_eq!(zstd::bulk::decompress(z, 2 * block * width).unwrap(), *c);
            }
            let seconds = start.elapsed().as_secs_f64();
            row(&format!("zstd {level} (C library)"), block, bytes, seconds, chunks.len(), None);
        }
    }
}

/// With `FILL_UNUSED`, each unused entry (255) replaced by the entry before it (0 at the
/// start), across blocks; then with `TRANSFORM`, the entries rewritten as a candidate coding
/// stores them ([`transform`]).
fn prepare(entries: &mut [u8], width: usize) {
    if std::env::var_os("FILL_UNUSED").is_some() {
        assert_eq!(width, 1, "FILL_UNUSED reads 1-byte entries");
        let mut before = 0;
        for e in entries.iter_mut() {
            if *e == 255 {
                *e = before;
            }
            before = *e;
        }
    }
    if let Ok(kind) = std::env::var("TRANSFORM") {
        assert_eq!(width, 1, "TRANSFORM reads 1-byte entries");
        transform(entries, &kind);
    }
}

/// Prints the empirical entropy of `entries` in bytes with no context, with the entry before and
/// with the two before as context, contexts starting afresh at each block of `block` bytes.
fn entropy(entries: &[u8], block: usize) {
    // Bits of a distribution given by its counts: the sum of -c log2(c / n).
    fn bits<'a>(counts: impl Iterator<Item = &'a u64> + Clone) -> f64 {
        let n: u64 = counts.clone().sum();
        counts.filter(|&&c| c > 0).map(|&c| -(c as f64) * (c as f64 / n as f64).log2()).sum()
    }
    let mut order0 = vec![0u64; 256];
    let mut order1 = vec![0u64; 256 * 256];
    let mut order2 = vec![0u64; 256 * 256 * 256];
    for chunk in entries.chunks(block) {
        let (mut a, mut b) = (0usize, 0usize);
        for &v in chunk {
            let v = usize::from(v);
            order0[v] += 1;
            order1[b << 8 | v] += 1;
            order2[a << 16 | b << 8 | v] += 1;
            (a, b) = (b, v);
        }
    }
    let h0 = bits(order0.iter());
    let h1: f64 = order1.chunks(256).map(|c| bits(c.iter())).sum();
    let h2: f64 = order2.chunks(256).map(|c| bits(c.iter())).sum();
    for (name, h) in [("no context", h0), ("the entry before", h1), ("the two entries before", h2)] {
        println!("entropy, {name}: {:.0} bytes ({:.3} bits an entry)", h / 8.0, h / entries.len() as f64);
    }
}

/// Rewrites every entry (distance to mate in plies, id 1) as the named coding would store it:
/// `wins`, every win as one value (2, a win in 1) and its distance left to a search of its
/// moves; `losses`, every loss but a mate on the board (1) as one value (3); `wdl`, both.
fn transform(entries: &mut [u8], kind: &str) {
    let (wins, losses) = match kind {
        "wins" => (true, false),
        "losses" => (false, true),
        "wdl" => (true, true),
        _ => panic!("TRANSFORM is wins, losses or wdl"),
    };
    for e in entries.iter_mut() {
        match *e {
            0 | 255 => {}
            v if v % 2 == 0 && wins => *e = 2,
            v if v % 2 == 1 && v > 1 && losses => *e = 3,
            _ => {}
        }
    }
}

/// Prints the bytes of an ideal coder of each block's own value frequencies (no context), the
/// frequencies themselves not counted, and of a fixed-width code of each block's own values
/// ranked by frequency (the bits of the block's distinct values, rounded up).
fn block_entropy(entries: &[u8], block: usize) {
    let (mut ideal, mut packed, mut distinct) = (0f64, 0u64, 0u64);
    for chunk in entries.chunks(block) {
        let mut counts = [0u64; 256];
        for &v in chunk {
            counts[usize::from(v)] += 1;
        }
        let n = chunk.len() as f64;
        ideal += counts.iter().filter(|&&c| c > 0).map(|&c| -(c as f64) * (c as f64 / n).log2()).sum::<f64>();
        let values = counts.iter().filter(|&&c| c > 0).count() as u64;
        distinct += values;
        let bits = 64 - (values.max(1) - 1).leading_zeros() as u64;
        packed += bits * chunk.len() as u64;
    }
    let blocks = entries.len().div_ceil(block) as u64;
    println!(
        "blocks of {block} bytes: each block's own frequencies, ideal {:.0} bytes; ranked, fixed width {} bytes; {:.1} distinct values a block",
        ideal / 8.0,
        packed / 8,
        distinct as f64 / blocks as f64
    );
}

/// Trains a zstd dictionary on a sample of the blocks of `block` bytes, compresses every block
/// with it at `level`, and decodes each once with the C library: bytes (dictionary included),
/// µs a block.
fn dictionary(entries: &[u8], block: usize, level: i32) {
    let chunks: Vec<&[u8]> = entries.chunks(block).collect();
    let samples: Vec<&[u8]> = chunks.iter().step_by((chunks.len() / 20_000).max(1)).copied().collect();
    for size in [16 * 1024, 110 * 1024] {
        let start = Instant::now();
        let dict = zstd::dict::from_samples(&samples, size).unwrap();
        let train = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let mut compressor = zstd::bulk::Compressor::with_dictionary(level, &dict).unwrap();
        let zs: Vec<Vec<u8>> = chunks.iter().map(|c| compressor.compress(c).unwrap()).collect();
        let compress = start.elapsed().as_secs_f64();
        let bytes: usize = zs.iter().map(Vec::len).sum::<usize>() + dict.len();
        let mut decompressor = zstd::bulk::Decompressor::with_dictionary(&dict).unwrap();
        let mut out = vec![0u8; block];
        let start = Instant::now();
        for (z, c) in zs.iter().zip(&chunks) {
            let n = decompressor.decompress_to_buffer(z, &mut out).unwrap();
            assert_eq!(&out[..n], *c);
        }
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "zstd {level}, a dictionary of {} bytes, blocks of {block} bytes: {bytes} bytes, {:.2} µs a block (C library), trained in {train:.1} s, compressed in {compress:.1} s",
            dict.len(),
            seconds * 1e6 / chunks.len() as f64
        );
    }
}

/// Fills a block's don't-care entries (255) as the writer does (`fill_unused` in
/// `crates/tablebase/src/blocks/compress.rs`, 1-byte entries): each takes the value of the used
/// entry before it in the block, those before the first used entry that entry's value; a block
/// with no used entry is left as it is.
fn fill_unused(block: &mut [u8]) {
    let Some(&first) = block.iter().find(|&&v| v != 255) else { return };
    let mut last = first;
    for v in block.iter_mut() {
        if *v == 255 {
            *v = last;
        } else {
            last = *v;
        }
    }
}

/// Block sizes per part of the table: each aligned run of `large` entries stored either as one
/// block or as blocks of `small`, by one of several rules, all at zstd `level`. Prints for each
/// rule the bytes of the blocks with an index of 12 bytes a block, the blocks, the share of the
/// entries in large blocks, and the time to decode a large block of those it chose (the C
/// library, one decoder, every block once; mean and the largest) against a small block's.
fn split_blocks(entries: &[u8], raw: bool, small: usize, large: usize, level: i32) {
    assert!(large.is_multiple_of(small) && large > small, "SPLIT=small,large with large a multiple of small");
    let fill = |chunk: &[u8]| -> Vec<u8> {
        let mut c = chunk.to_vec();
        if raw {
            fill_unused(&mut c);
        }
        c
    };
    let mut compressor = zstd::bulk::Compressor::new(level).unwrap();
    let mut decompressor = zstd::bulk::Decompressor::new().unwrap();
    let mut out = vec![0u8; large];
    let (mut runs, mut small_us, mut small_blocks) = (Vec::new(), 0f64, 0usize);
    // Small blocks of one value: how many, and their compressed bytes.
    let (mut uniform, mut uniform_bytes) = (0usize, 0usize);
    let start = Instant::now();
    for run in entries.chunks(large) {
        let whole = fill(run);
        let z = compressor.compress(&whole).unwrap();
        let t = Instant::now();
        let n = decompressor.decompress_to_buffer(&z, &mut out).unwrap();
        let one_us = t.elapsed().as_secs_f64() * 1e6;
        assert_eq!(&out[..n], &whole[..]);
        let mut seen = [false; 256];
        whole.iter().for_each(|&v| seen[usize::from(v)] = true);
        let (mut split, mut blocks) = (0, 0);
        for chunk in run.chunks(small) {
            let part = fill(chunk);
            let z = compressor.compress(&part).unwrap();
            let t = Instant::now();
            let n = decompressor.decompress_to_buffer(&z, &mut out).unwrap();
            small_us += t.elapsed().as_secs_f64() * 1e6;
            assert_eq!(&out[..n], &part[..]);
            split += z.len();
            blocks += 1;
            if part.iter().all(|&v| v == part[0]) {
                uniform += 1;
                uniform_bytes += z.len();
            }
        }
        small_blocks += blocks;
        runs.push(Run { one: z.len(), split, blocks, values: seen.iter().filter(|&&s| s).count(), one_us });
    }
    println!(
        "runs of {large} entries as one zstd {level} block or as blocks of {small}: {} runs, compressed both ways in {:.1} s; a small block decodes in {:.2} µs (C library)",
        runs.len(),
        start.elapsed().as_secs_f64(),
        small_us / small_blocks as f64
    );
    let all_small: usize = runs.iter().map(|r| r.split + 12 * r.blocks).sum();
    let uniform_row = format!(
        "| (blocks of {small} alone) each that holds one value kept in the index alone, its value for its offset: {uniform} of {small_blocks}, {uniform_bytes} bytes of frames saved | {} | {small_blocks} | — | — |",
        all_small - uniform_bytes
    );
    print_rules(&runs, entries.len(), large, &uniform_row);
}

/// One aligned run of `large` entries: bytes as one block, bytes as small blocks, the small
/// blocks, distinct values, µs to decode it as one block.
struct Run {
    one: usize,
    split: usize,
    blocks: usize,
    values: usize,
    one_us: f64,
}

/// One Markdown row per rule that chooses, run by run, one large block or small blocks, after
/// `first_row`.
fn print_rules(runs: &[Run], total_entries: usize, large: usize, first_row: &str) {
    println!("| rule: one block of {large} where | bytes with the index | blocks | entries in large blocks | µs to decode a large block, mean; largest |");
    println!("|---|---:|---:|---:|---:|");
    println!("{first_row}");
    type Rule = Box<dyn Fn(&Run) -> bool>;
    let rules: Vec<(String, Rule)> = vec![
        ("never (every block small)".into(), Box::new(|_| false)),
        ("the run holds one value".into(), Box::new(|r| r.values == 1)),
        ("it holds at most two values".into(), Box::new(|r| r.values <= 2)),
        ("it compresses to at most 256 bytes".into(), Box::new(|r| r.one <= 256)),
        ("it compresses to at most 1024 bytes".into(), Box::new(|r| r.one <= 1024)),
        ("it is smaller so, index included".into(), Box::new(|r| r.one + 12 < r.split + 12 * r.blocks)),
        ("always (every block large)".into(), Box::new(|_| true)),
    ];
    for (name, rule) in rules {
        let (mut bytes, mut blocks, mut in_large, mut us, mut largest, mut chosen) = (0, 0, 0, 0f64, 0f64, 0);
        for (k, r) in runs.iter().enumerate() {
            if rule(r) {
                bytes += r.one + 12;
                blocks += 1;
                in_large += large.min(total_entries - k * large);
                us += r.one_us;
                largest = largest.max(r.one_us);
                chosen += 1;
            } else {
                bytes += r.split + 12 * r.blocks;
                blocks += r.blocks;
            }
        }
        let mean = if chosen > 0 { format!("{:.2}; {largest:.1}", us / chosen as f64) } else { "—".into() };
        println!(
            "| {name} | {bytes} | {blocks} | {:.1} % | {mean} |",
            100.0 * in_large as f64 / total_entries as f64
        );
    }
}
