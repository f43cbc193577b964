/// A small, fast, seedable random generator (SplitMix64), so corpora, bootstraps and scenario
/// sampling are reproducible from a seed on every platform.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform Double in [0, 1) from the top 53 bits.
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// A standard normal deviate (Box–Muller).
    public mutating func nextGaussian() -> Double {
        let u1 = max(nextUnit(), 0x1p-60), u2 = nextUnit()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// FNV-1a: a string hash that, unlike `Hasher`, is the same in every process and on every run
/// (for seeds derived from names and for stable shards).
public enum StableHash {
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
