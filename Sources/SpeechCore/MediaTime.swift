/// An exact media time: a rational number of seconds (`value / timescale`) with the special values
/// CoreMedia's `CMTime` has (invalid, indefinite, ±infinity).
///
/// Comparison is exact across timescales (1/2 equals 8000/16000) and follows `CMTimeCompare`:
/// −∞ < every numeric time < indefinite < +∞ < invalid. Arithmetic keeps results exact while the
/// least common timescale fits in 32 bits; otherwise it rounds to the larger timescale and sets
/// ``Flags/hasBeenRounded``.
public struct MediaTime: Sendable, CustomStringConvertible {
    public var value: Int64
    public var timescale: Int32
    public var flags: Flags
    public var epoch: Int64

    /// CMTime-compatible flag bits.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let valid = Flags(rawValue: 1 << 0)
        public static let hasBeenRounded = Flags(rawValue: 1 << 1)
        public static let positiveInfinity = Flags(rawValue: 1 << 2)
        public static let negativeInfinity = Flags(rawValue: 1 << 3)
        public static let indefinite = Flags(rawValue: 1 << 4)
        static let special: Flags = [.positiveInfinity, .negativeInfinity, .indefinite]
    }

    /// How a value is rounded when it moves to a coarser timescale.
    public enum Rounding: Sendable {
        case halfAwayFromZero, towardZero, awayFromZero, towardPositiveInfinity, towardNegativeInfinity
    }

    /// The largest timescale a time can have (CMTime's limit).
    public static let maxTimescale: Int32 = Int32.max

    public init(value: Int64, timescale: Int32, flags: Flags = .valid, epoch: Int64 = 0) {
        self.value = value
        self.timescale = timescale
        // A time with a non-positive timescale is invalid, whatever its flags say.
        self.flags = timescale > 0 ? flags : flags.subtracting(.valid)
        self.epoch = epoch
    }

    public static let zero = MediaTime(value: 0, timescale: 1)
    public static let invalid = MediaTime(value: 0, timescale: 0, flags: [])
    public static let indefinite = MediaTime(special: [.valid, .indefinite])
    public static let positiveInfinity = MediaTime(special: [.valid, .positiveInfinity])
    public static let negativeInfinity = MediaTime(special: [.valid, .negativeInfinity])

    // Special-value constants are built with timescale 0 but keep `.valid`.
    private init(special flags: Flags) {
        self.value = 0
        self.timescale = 0
        self.flags = flags
        self.epoch = 0
    }

    public var isValid: Bool { flags.contains(.valid) }
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }
    /// Valid and not indefinite or infinite: a number of seconds.
    public var isNumeric: Bool { isValid && flags.isDisjoint(with: Flags.special) && timescale > 0 }

    /// The time in seconds; NaN for invalid or indefinite, ±infinity for the infinities.
    public var seconds: Double {
        if isNumeric { return Double(value) / Double(timescale) }
        if isPositiveInfinity { return .infinity }
        if isNegativeInfinity { return -.infinity }
        return .nan
    }

    /// A time from seconds, rounded to `preferredTimescale` (NaN gives invalid, ±∞ the infinities).
    public init(seconds: Double, preferredTimescale: Int32, rounding: Rounding = .halfAwayFromZero) {
        if seconds.isNaN || preferredTimescale <= 0 {
            self = .invalid
            return
        }
        if seconds == .infinity {
            self = .positiveInfinity
            return
        }
        if seconds == -.infinity {
            self = .negativeInfinity
            return
        }
        let exact = seconds * Double(preferredTimescale)
        let rounded = MediaTime.round(exact, rounding)
        guard rounded.magnitude < 9.2e18 else {
            self = rounded > 0 ? .positiveInfinity : .negativeInfinity
            return
        }
        var flags: Flags = .valid
        if rounded != exact { flags.insert(.hasBeenRounded) }
        self.init(value: Int64(rounded), timescale: preferredTimescale, flags: flags)
    }

    /// The start time of sample `index` at `sampleRate` (exact when the rate is a whole number).
    public init(sampleIndex index: Int64, sampleRate: Double) {
        if let scale = MediaTime.integralTimescale(sampleRate) {
            self.init(value: index, timescale: scale)
        } else {
            self.init(seconds: Double(index) / sampleRate, preferredTimescale: 1_000_000_000)
        }
    }

    /// The index of the sample at this time for `sampleRate`, rounded as asked; nil when not numeric.
    public func sampleIndex(sampleRate: Double, rounding: Rounding = .halfAwayFromZero) -> Int64? {
        guard isNumeric else { return nil }
        if let scale = MediaTime.integralTimescale(sampleRate) {
            return convertScale(scale, rounding: rounding).value
        }
        return Int64(MediaTime.round(seconds * sampleRate, rounding))
    }

    /// This time expressed in another timescale, rounded as asked (exact when divisible).
    public func convertScale(_ newTimescale: Int32, rounding: Rounding = .halfAwayFromZero) -> MediaTime {
        guard isNumeric else { return self }
        guard newTimescale > 0 else { return .invalid }
        if newTimescale == timescale { return self }
        let (quotient, remainder, overflow) = MediaTime.mulDiv(value, Int64(newTimescale), Int64(timescale))
        if overflow { return value > 0 ? .positiveInfinity : .negativeInfinity }
        var result = quotient
        if remainder != 0 {
            result = MediaTime.adjust(quotient, remainder: remainder, divisor: Int64(timescale), rounding)
        }
        var flags = self.flags
        if remainder != 0 { flags.insert(.hasBeenRounded) }
        return MediaTime(value: result, timescale: newTimescale, flags: flags, epoch: epoch)
    }

    public var description: String {
        if !isValid { return "invalid" }
        if isIndefinite { return "indefinite" }
        if isPositiveInfinity { return "+infinity" }
        if isNegativeInfinity { return "-infinity" }
        return "\(value)/\(timescale)"
    }

    // MARK: Helpers

    static func integralTimescale(_ rate: Double) -> Int32? {
        guard rate > 0, rate <= Double(Int32.max), rate.rounded() == rate else { return nil }
        return Int32(rate)
    }

    static func round(_ x: Double, _ rounding: Rounding) -> Double {
        switch rounding {
        case .halfAwayFromZero: return x.rounded(.toNearestOrAwayFromZero)
        case .towardZero: return x.rounded(.towardZero)
        case .awayFromZero: return x.rounded(.awayFromZero)
        case .towardPositiveInfinity: return x.rounded(.up)
        case .towardNegativeInfinity: return x.rounded(.down)
        }
    }

    /// Rounds the truncated quotient `q` (remainder `r`, same sign as the dividend) as asked.
    static func adjust(_ q: Int64, remainder r: Int64, divisor d: Int64, _ rounding: Rounding) -> Int64 {
        let negative = r < 0
        let awayStep: Int64 = negative ? -1 : 1
        switch rounding {
        case .towardZero: return q
        case .awayFromZero: return q + awayStep
        case .towardPositiveInfinity: return negative ? q : q + 1
        case .towardNegativeInfinity: return negative ? q - 1 : q
        case .halfAwayFromZero:
            // |r| / |d| >= 1/2  <=>  2|r| >= |d|
            return 2 * r.magnitude >= d.magnitude ? q + awayStep : q
        }
    }

    /// (a·b) / c with a 128-bit intermediate: truncated quotient, remainder, and whether it overflowed.
    static func mulDiv(_ a: Int64, _ b: Int64, _ c: Int64) -> (Int64, Int64, Bool) {
        let product = a.multipliedFullWidth(by: b)
        let negative = (a < 0) != (b < 0)
        // Divide the magnitude with unsigned arithmetic, then restore the sign.
        let magnitude = MediaTime.magnitude128(high: product.high, low: product.low)
        let divisor = c.magnitude
        guard magnitude.high < divisor else { return (0, 0, true) }
        let (q, r) = divisor.dividingFullWidth((magnitude.high, magnitude.low))
        guard q <= UInt64(Int64.max) else { return (0, 0, true) }
        let signedQ = negative ? -Int64(q) : Int64(q)
        let signedR = negative ? -Int64(r) : Int64(r)
        return (signedQ, signedR, false)
    }

    static func magnitude128(high: Int64, low: UInt64) -> (high: UInt64, low: UInt64) {
        if high >= 0 { return (UInt64(high), low) }
        // Two's complement negate of the 128-bit value.
        let invLow = ~low, invHigh = ~UInt64(bitPattern: high)
        let (newLow, carry) = invLow.addingReportingOverflow(1)
        return (invHigh &+ (carry ? 1 : 0), newLow)
    }
}

// MARK: - Comparison

extension MediaTime: Comparable, Hashable {
    /// Ordering rank of the kinds of time, as `CMTimeCompare` orders them.
    private var rank: Int {
        if !isValid { return 4 }
        if isPositiveInfinity { return 3 }
        if isIndefinite { return 2 }
        if isNegativeInfinity { return 0 }
        return 1
    }

    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        compare(lhs, rhs) == 0
    }

    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// −1, 0 or 1, exactly, across timescales.
    public static func compare(_ lhs: MediaTime, _ rhs: MediaTime) -> Int {
        let (lr, rr) = (lhs.rank, rhs.rank)
        if lr != rr { return lr < rr ? -1 : 1 }
        guard lr == 1 else { return 0 }
        if lhs.timescale == rhs.timescale {
            return lhs.value == rhs.value ? 0 : (lhs.value < rhs.value ? -1 : 1)
        }
        // Compare lhs.value·rhs.timescale with rhs.value·lhs.timescale in 128 bits.
        let l = lhs.value.multipliedFullWidth(by: Int64(rhs.timescale))
        let r = rhs.value.multipliedFullWidth(by: Int64(lhs.timescale))
        if l.high != r.high { return l.high < r.high ? -1 : 1 }
        if l.low != r.low { return l.low < r.low ? -1 : 1 }
        return 0
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rank)
        guard rank == 1 else { return }
        // Equal times hash alike: hash the reduced fraction.
        let g = MediaTime.gcd(value.magnitude, UInt64(timescale))
        hasher.combine(value / Int64(g))
        hasher.combine(Int64(timescale) / Int64(g))
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }
}

// MARK: - Arithmetic

extension MediaTime {
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime { combine(lhs, rhs, negateRight: false) }
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime { combine(lhs, rhs, negateRight: true) }
    public static func += (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs + rhs }
    public static func -= (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs - rhs }

    public static prefix func - (time: MediaTime) -> MediaTime {
        if time.isPositiveInfinity { return .negativeInfinity }
        if time.isNegativeInfinity { return .positiveInfinity }
        guard time.isNumeric else { return time }
        guard time.value != .min else { return .positiveInfinity }
        return MediaTime(value: -time.value, timescale: time.timescale, flags: time.flags, epoch: time.epoch)
    }

    /// The time multiplied by a whole number.
    public static func * (time: MediaTime, factor: Int64) -> MediaTime {
        if !time.isValid || time.isIndefinite { return time }
        if time.isPositiveInfinity || time.isNegativeInfinity {
            if factor == 0 { return .invalid }
            return (factor > 0) == time.isPositiveInfinity ? .positiveInfinity : .negativeInfinity
        }
        let (product, overflow) = time.value.multipliedReportingOverflow(by: factor)
        if overflow { return ((time.value < 0) == (factor < 0)) ? .positiveInfinity : .negativeInfinity }
        return MediaTime(value: product, timescale: time.timescale, flags: time.flags, epoch: time.epoch)
    }

    public static func minimum(_ a: MediaTime, _ b: MediaTime) -> MediaTime { a <= b ? a : b }
    public static func maximum(_ a: MediaTime, _ b: MediaTime) -> MediaTime { a >= b ? a : b }

    private static func combine(_ lhs: MediaTime, _ rhsIn: MediaTime, negateRight: Bool) -> MediaTime {
        let rhs = negateRight ? -rhsIn : rhsIn
        if !lhs.isValid || !rhs.isValid { return .invalid }
        let lInf = lhs.isPositiveInfinity ? 1 : (lhs.isNegativeInfinity ? -1 : 0)
        let rInf = rhs.isPositiveInfinity ? 1 : (rhs.isNegativeInfinity ? -1 : 0)
        if lInf != 0 || rInf != 0 {
            if lInf != 0 && rInf != 0 && lInf != rInf { return .invalid }
            if lhs.isIndefinite || rhs.isIndefinite { return .indefinite }
            return (lInf + rInf) > 0 ? .positiveInfinity : .negativeInfinity
        }
        if lhs.isIndefinite || rhs.isIndefinite { return .indefinite }

        var flags: Flags = .valid
        if lhs.flags.contains(.hasBeenRounded) || rhs.flags.contains(.hasBeenRounded) { flags.insert(.hasBeenRounded) }
        let epoch = lhs.epoch
        if lhs.timescale == rhs.timescale {
            let (sum, overflow) = lhs.value.addingReportingOverflow(rhs.value)
            if !overflow { return MediaTime(value: sum, timescale: lhs.timescale, flags: flags, epoch: epoch) }
            return sum < 0 ? .positiveInfinity : .negativeInfinity
        }
        // Exact when the least common multiple of the timescales fits; else round to the finer one.
        let g = Int64(gcd(UInt64(lhs.timescale), UInt64(rhs.timescale)))
        let lcm = Int64(lhs.timescale) / g * Int64(rhs.timescale)
        let scale: Int32 = lcm <= Int64(Int32.max) ? Int32(lcm) : max(lhs.timescale, rhs.timescale)
        let l = lhs.convertScale(scale), r = rhs.convertScale(scale)
        if !l.isNumeric { return l }
        if !r.isNumeric { return r }
        if l.flags.contains(.hasBeenRounded) || r.flags.contains(.hasBeenRounded) { flags.insert(.hasBeenRounded) }
        let (sum, overflow) = l.value.addingReportingOverflow(r.value)
        if overflow { return l.value > 0 ? .positiveInfinity : .negativeInfinity }
        return MediaTime(value: sum, timescale: scale, flags: flags, epoch: epoch)
    }
}

extension MediaTime: Codable {
    private enum CodingKeys: String, CodingKey { case value, timescale, flags, epoch }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let value = try c.decode(Int64.self, forKey: .value)
        let timescale = try c.decode(Int32.self, forKey: .timescale)
        let flags = Flags(rawValue: try c.decodeIfPresent(UInt32.self, forKey: .flags) ?? Flags.valid.rawValue)
        let epoch = try c.decodeIfPresent(Int64.self, forKey: .epoch) ?? 0
        if flags.contains(.valid) && !flags.isDisjoint(with: Flags.special) {
            self.init(special: flags)
        } else {
            self.init(value: value, timescale: timescale, flags: flags, epoch: epoch)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(value, forKey: .value)
        try c.encode(timescale, forKey: .timescale)
        try c.encode(flags.rawValue, forKey: .flags)
        if epoch != 0 { try c.encode(epoch, forKey: .epoch) }
    }
}
