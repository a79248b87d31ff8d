//! The generic bit-set allocator, after `pkg/registry/core/service/allocator/bitmap.go`.
//!
//! Upstream keeps the set in a `big.Int`; we keep it in `u64` words (bit `i` of word `i / 64` is
//! offset `i`), which makes the big-endian snapshot encoding a matter of byte order.

use crate::rng::SimRng;

/// How `allocate_next` picks a free offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// `randomScanStrategy`: a random start in `[0, max)`, then scan forward with wrap-around.
    /// The only strategy before KEP-3070 (behaviour 1.20).
    RandomScan,
    /// `randomScanStrategyWithOffset`: the upper (dynamic) band `[offset, max)` first, from a random
    /// start and wrapping inside the band; only when it is full, the lower (static) band `[0, offset)`.
    RandomScanWithOffset(usize),
}

/// `AllocationBitmap`: a fixed-size set of offsets `0..max`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllocationBitmap {
    strategy: Strategy,
    max: usize,
    range_spec: String,
    /// Count of set bits. Restore may bring bits at or above `max` (upstream does not check), and
    /// they are counted as upstream counts them, so `free()` can go negative.
    count: usize,
    words: Vec<u64>,
    /// Bit `j` is set when word `j` is full: a scan steps over 64 full words at once. Near a full
    /// /12 a random start used to sit in a run of thousands of full words, and walking them was
    /// nearly all of AllocateNext's time (wasm pays a loop check per step, native does not).
    full: Vec<u64>,
}

fn words_for(bits: usize) -> usize {
    bits.div_ceil(64)
}

impl AllocationBitmap {
    /// `NewAllocationMapWithOffset`; `Strategy::RandomScan` is `NewAllocationMap`.
    pub fn new(max: usize, range_spec: impl Into<String>, strategy: Strategy) -> Self {
        if let Strategy::RandomScanWithOffset(offset) = strategy {
            // Upstream's precondition (its callers guarantee it since the /28 fix).
            debug_assert!(
                offset == 0 || offset < max,
                "band offset {offset} must be below max {max}"
            );
        }
        AllocationBitmap {
            strategy,
            max,
            range_spec: range_spec.into(),
            count: 0,
            words: vec![0; words_for(max)],
            full: vec![0; words_for(words_for(max))],
        }
    }

    /// Sets bit `offset` (clear before) and keeps `count` and `full` in step.
    fn set(&mut self, offset: usize) {
        let j = offset / 64;
        self.words[j] |= 1 << (offset % 64);
        if self.words[j] == !0 {
            self.full[j / 64] |= 1 << (j % 64);
        }
        self.count += 1;
    }

    pub(crate) fn max(&self) -> usize {
        self.max
    }

    /// The size of the static (lower) band: 0 without an offset.
    pub fn static_band(&self) -> usize {
        match self.strategy {
            Strategy::RandomScan => 0,
            Strategy::RandomScanWithOffset(offset) => offset,
        }
    }

    /// Reserves `offset`. `Ok(false)` when it was already taken: that is not an error upstream.
    pub fn allocate(&mut self, offset: usize) -> Result<bool, String> {
        if offset >= self.max {
            return Err(format!("offset {offset} out of range [0,{}]", self.max));
        }
        if self.has(offset) {
            return Ok(false);
        }
        self.set(offset);
        Ok(true)
    }

    /// Reserves a free offset chosen by the strategy, or `None` when nothing is free.
    pub fn allocate_next(&mut self, rng: &mut SimRng) -> Option<usize> {
        let next = self.pick_free(rng)?;
        self.set(next);
        Some(next)
    }

    fn pick_free(&self, rng: &mut SimRng) -> Option<usize> {
        if self.count >= self.max {
            return None;
        }
        let (lower, upper) = match self.strategy {
            Strategy::RandomScan => (0, self.max),
            Strategy::RandomScanWithOffset(offset) => (offset, self.max - offset),
        };
        // Upper band `[lower, max)` first, then the static band `[0, lower)`.
        self.scan_band(lower, upper, rng).or_else(|| self.scan_band(0, lower, rng))
    }

    /// Scans `len` offsets starting at `base`, from a random start, wrapping inside the band.
    fn scan_band(&self, base: usize, len: usize, rng: &mut SimRng) -> Option<usize> {
        if len == 0 {
            return None;
        }
        let start = rng.intn(len);
        // Two contiguous runs: [start, len) then [0, start), searched a word at a time.
        self.first_clear(base + start, base + len).or_else(|| self.first_clear(base, base + start))
    }

    /// The lowest clear offset in `[from, to)`, skipping full words through `full` (`to <= max`,
    /// so every word it reads exists).
    fn first_clear(&self, from: usize, to: usize) -> Option<usize> {
        if from >= to {
            return None;
        }
        let last = (to - 1) / 64;
        let mut j = from / 64;
        let mut free = !self.words[j] & (!0u64 << (from % 64));
        while free == 0 {
            j = self.next_not_full(j + 1, last)?;
            free = !self.words[j];
        }
        let found = j * 64 + free.trailing_zeros() as usize;
        (found < to).then_some(found)
    }

    /// The lowest word index in `[j, last]` that is not full.
    fn next_not_full(&self, mut j: usize, last: usize) -> Option<usize> {
        while j <= last {
            let open = !self.full[j / 64] >> (j % 64);
            if open != 0 {
                let found = j + open.trailing_zeros() as usize;
                return (found <= last).then_some(found);
            }
            j = (j / 64 + 1) * 64;
        }
        None
    }

    /// Clears `offset`; a clear or out-of-range offset is a silent no-op.
    pub fn release(&mut self, offset: usize) {
        if self.has(offset) {
            let j = offset / 64;
            self.words[j] &= !(1 << (offset % 64));
            self.full[j / 64] &= !(1 << (j % 64));
            self.count -= 1;
        }
    }

    /// Bit test; offsets beyond the set read as clear.
    pub fn has(&self, offset: usize) -> bool {
        self.words.get(offset / 64).is_some_and(|w| w >> (offset % 64) & 1 == 1)
    }

    /// `max - count`; negative only after restoring bits beyond `max`.
    pub fn free(&self) -> i64 {
        self.max as i64 - self.count as i64
    }

    /// Set bits in ascending order (`ForEach`).
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &word)| {
            let mut w = word;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let bit = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(i * 64 + bit)
            })
        })
    }

    /// `(rangeSpec, data)`: `data` is the big-endian, minimal-length encoding of the set viewed as
    /// an integer, exactly as Go's `big.Int.Bytes()` writes it into `RangeAllocation.data`.
    pub fn snapshot(&self) -> (String, Vec<u8>) {
        let top = self.words.iter().rposition(|&w| w != 0);
        let mut data = Vec::new();
        if let Some(top) = top {
            for w in self.words[..=top].iter().rev() {
                data.extend_from_slice(&w.to_be_bytes());
            }
            let leading_zero_bytes = data.iter().take_while(|&&b| b == 0).count();
            data.drain(..leading_zero_bytes);
        }
        (self.range_spec.clone(), data)
    }

    /// Replaces the set with `data`. Only the range string is checked, as upstream does.
    pub fn restore(&mut self, range_spec: &str, data: &[u8]) -> Result<(), String> {
        if range_spec != self.range_spec {
            return Err("the provided range does not match the current range".to_string());
        }
        // The buffer is reused (a /12 is 128 KiB of words, restored at every repair write), and
        // only the words the data reaches are counted: the rest are zero.
        let reached = data.len().div_ceil(8);
        self.words.clear();
        self.words.resize(words_for(self.max).max(reached), 0);
        for (i, &byte) in data.iter().rev().enumerate() {
            self.words[i / 8] |= (byte as u64) << (8 * (i % 8));
        }
        self.count = self.words[..reached].iter().map(|w| w.count_ones() as usize).sum();
        self.full.clear();
        self.full.resize(words_for(self.words.len()), 0);
        for (j, _) in self.words[..reached].iter().enumerate().filter(|(_, &w)| w == !0) {
            self.full[j / 64] |= 1 << (j % 64);
        }
        Ok(())
    }
}
