//! The referee's own random streams, written out here so that a seed in a record draws the same
//! Wyx rack, DOUBLE deck and game seeds forever, whatever a dependency's next version does:
//! ChaCha8 keyed from a 64-bit seed, bounded integers, and the Fisher-Yates shuffle.
//! docs/random-draws.md specifies every step; `tests` hold golden vectors.

/// ChaCha's constant words: "expand 32-byte k".
const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// A stream of 32-bit words: ChaCha with 8 rounds, a 256-bit key, a 64-bit block counter (words
/// 12 and 13 of the state) and a 64-bit stream number (words 14 and 15).
#[derive(Clone)]
pub struct Stream {
    input: [u32; 16],
    block: [u32; 16],
    /// The next word of `block` to hand out; 16 when a new block is due.
    next: usize,
}

/// One step of PCG32 (XSH RR): how a 64-bit seed becomes key bytes, four at a time.
fn pcg32(state: &mut u64) -> [u8; 4] {
    *state = state
        .wrapping_mul(0x5851_F42D_4C95_7F2D)
        .wrapping_add(0xA176_54E4_6FBE_17F3);
    let s = *state;
    let xorshifted = (((s >> 18) ^ s) >> 27) as u32;
    xorshifted.rotate_right((s >> 59) as u32).to_le_bytes()
}

fn quarter_round(x: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    x[a] = x[a].wrapping_add(x[b]);
    x[d] = (x[d] ^ x[a]).rotate_left(16);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = (x[b] ^ x[c]).rotate_left(12);
    x[a] = x[a].wrapping_add(x[b]);
    x[d] = (x[d] ^ x[a]).rotate_left(8);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = (x[b] ^ x[c]).rotate_left(7);
}

impl Stream {
    /// The stream `stream` of the generator keyed by `seed`: the key is eight PCG32 outputs from
    /// state `seed`, as little-endian bytes; the block counter starts at 0.
    pub fn new(seed: u64, stream: u64) -> Stream {
        let mut state = seed;
        let mut key = [0u8; 32];
        for bytes in key.chunks_exact_mut(4) {
            bytes.copy_from_slice(&pcg32(&mut state));
        }
        Stream::keyed(&key, stream)
    }

    /// The stream `stream` of the generator keyed by the 32 bytes `key` (eight little-endian
    /// words); the block counter starts at 0.
    pub fn keyed(key: &[u8; 32], stream: u64) -> Stream {
        let mut input = [0u32; 16];
        input[..4].copy_from_slice(&SIGMA);
        for (word, bytes) in input[4..12].iter_mut().zip(key.chunks_exact(4)) {
            *word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        }
        input[14] = stream as u32;
        input[15] = (stream >> 32) as u32;
        Stream {
            input,
            block: [0; 16],
            next: 16,
        }
    }

    fn refill(&mut self) {
        let mut x = self.input;
        for _ in 0..4 {
            quarter_round(&mut x, 0, 4, 8, 12);
            quarter_round(&mut x, 1, 5, 9, 13);
            quarter_round(&mut x, 2, 6, 10, 14);
            quarter_round(&mut x, 3, 7, 11, 15);
            quarter_round(&mut x, 0, 5, 10, 15);
            quarter_round(&mut x, 1, 6, 11, 12);
            quarter_round(&mut x, 2, 7, 8, 13);
            quarter_round(&mut x, 3, 4, 9, 14);
        }
        for (out, (mixed, original)) in self.block.iter_mut().zip(x.iter().zip(&self.input)) {
            *out = mixed.wrapping_add(*original);
        }
        let counter = (u64::from(self.input[13]) << 32 | u64::from(self.input[12])).wrapping_add(1);
        self.input[12] = counter as u32;
        self.input[13] = (counter >> 32) as u32;
        self.next = 0;
    }

    /// The next word.
    pub fn next_u32(&mut self) -> u32 {
        if self.next == 16 {
            self.refill();
        }
        let word = self.block[self.next];
        self.next += 1;
        word
    }

    /// The next two words, the first as the low half.
    pub fn next_u64(&mut self) -> u64 {
        let low = u64::from(self.next_u32());
        low | u64::from(self.next_u32()) << 32
    }

    /// A number below `bound` (which must not be 0): the high half of a word times `bound`; when
    /// the low half is above `2^32 - bound`, one more word times `bound` may carry one into it.
    /// Nearly uniform, and exactly what the records were drawn with.
    pub fn below(&mut self, bound: u32) -> u32 {
        assert!(bound > 0, "a bound of 0 holds no number");
        let wide = u64::from(self.next_u32()) * u64::from(bound);
        let (mut result, low) = ((wide >> 32) as u32, wide as u32);
        if low > bound.wrapping_neg() {
            let extra = ((u64::from(self.next_u32()) * u64::from(bound)) >> 32) as u32;
            result += u32::from(low.checked_add(extra).is_none());
        }
        result
    }

    /// Shuffles `items` (fewer than 2^32 of them) by Fisher-Yates from the front: for i = 1, 2,
    /// ..., n - 1, item i is swapped with item j, j uniform in 0..=i. The j are drawn several at
    /// once: one number below the product of the next bounds (i + 1)(i + 2)... that fits in 32
    /// bits, read digit by digit, lowest first, except that the last of a group is the number left.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        if items.len() <= 1 {
            return;
        }
        let len = u32::try_from(items.len()).expect("fewer than 2^32 items");
        let (mut chunk, mut left) = (0u32, 1u8);
        for i in 1..len {
            let bound = i + 1;
            left -= 1;
            if left == 0 {
                let (product, count) = group(bound);
                chunk = self.below(product);
                left = count;
            }
            let j = if left == 1 {
                chunk
            } else {
                let digit = chunk % bound;
                chunk /= bound;
                digit
            };
            items.swap(i as usize, j as usize);
        }
    }
}

/// The product `m (m + 1) ... (m + k - 1)` of the longest run of bounds from `m` that fits in 32
/// bits, and its length `k`.
fn group(m: u32) -> (u32, u8) {
    let (mut product, mut next) = (m, m + 1);
    while let Some(p) = product.checked_mul(next) {
        product = p;
        next += 1;
    }
    (product, (next - m) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Golden vectors, drawn with rand_chacha 0.10's ChaCha8Rng (`seed_from_u64`, `set_stream`) and
    // rand 0.10.3's `random_range` and `shuffle`: the implementation that drew every record before
    // this module existed, and an independent one.
    const GOLDEN_WORDS: [u32; 20] = [
        962419617, 2928721845, 628724104, 4081401798, 3317060492, 1836168968, 1477863250,
        2694492921, 3166061232, 1239501272, 2757591710, 644068443, 1351029524, 1323024129,
        705833092, 3452607245, 2697858048, 3312488290, 3544920472, 1024715907,
    ];
    const GOLDEN_STREAM_7_U64: u64 = 2370525664269707216;
    const GOLDEN_BELOW: [u32; 10] = [0, 1, 2, 3, 43, 1034975736, 4174941029, 4, 49, 16];
    const GOLDEN_DECK: [u8; 72] = [
        10, 7, 36, 62, 58, 15, 13, 19, 64, 33, 2, 8, 71, 11, 20, 34, 25, 61, 47, 4, 6, 14, 28, 60,
        9, 43, 41, 50, 37, 53, 26, 1, 48, 66, 3, 70, 59, 35, 21, 46, 30, 38, 22, 32, 65, 29, 52,
        49, 31, 55, 42, 69, 44, 5, 39, 40, 16, 12, 24, 17, 56, 67, 54, 23, 0, 45, 63, 27, 18, 68,
        57, 51,
    ];
    const GOLDEN_SIXTEEN_TWICE: [u8; 16] = [6, 14, 1, 15, 5, 13, 11, 7, 4, 0, 8, 3, 12, 10, 9, 2];

    #[test]
    fn words_match_chacha8() {
        let mut stream = Stream::new(42, 0);
        let words: Vec<u32> = (0..20).map(|_| stream.next_u32()).collect();
        assert_eq!(words, GOLDEN_WORDS);
        let mut other = Stream::new(42, 7);
        assert_eq!(other.next_u64(), GOLDEN_STREAM_7_U64);
    }

    #[test]
    fn bounded_numbers_match() {
        let mut stream = Stream::new(9, 3);
        let drawn: Vec<u32> = [1, 2, 3, 7, 100, 1 << 31, u32::MAX, 5, 72, 49]
            .iter()
            .map(|&b| stream.below(b))
            .collect();
        assert_eq!(drawn, GOLDEN_BELOW);
    }

    #[test]
    fn shuffles_match() {
        let mut deck: Vec<u8> = (0..72).collect();
        Stream::new(1234, 2).shuffle(&mut deck);
        assert_eq!(deck, GOLDEN_DECK);
        let mut sixteen: Vec<u8> = (0..16).collect();
        let mut stream = Stream::new(0, 0);
        stream.shuffle(&mut sixteen);
        stream.shuffle(&mut sixteen);
        assert_eq!(sixteen, GOLDEN_SIXTEEN_TWICE);
    }

    #[test]
    fn groups_are_the_longest_products_that_fit() {
        assert_eq!(group(2), (479_001_600, 11)); // 2 * 3 * ... * 12 = 12!
        assert_eq!(group(65_535), (65_535 * 65_536, 2));
        assert_eq!(group(65_536), (65_536, 1));
    }
}
