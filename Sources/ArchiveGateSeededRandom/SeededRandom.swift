/// SplitMix64: a small, fast generator whose whole state is one seed, the same on every platform,
/// so generated inputs (benchmark archives, the oracle's graphs, test fixtures) are reproducible
/// from their seed and never depend on the system RNG.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The generator for item `index` of a run with `seed`, independent of every other item.
    public init(seed: UInt64, index: UInt64) {
        var mixer = SeededRandom(seed: seed ^ (index &* 0x9E37_79B9_7F4A_7C15))
        state = mixer.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with about `probability` (0…1).
    public mutating func chance(_ probability: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < probability }

    /// One of `choices` (not empty), uniformly but for a bias of `count / 2^64`.
    public mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next() % UInt64(choices.count))] }
}
