/// A non-negative integer of any size, as decimal digits. Whisper's number normaliser works on
/// Python integers ("two decillion" is 2·10³³), and needs only these few operations on them.
struct Natural: Equatable, Sendable, CustomStringConvertible {
    /// Most significant first, no leading zeros; zero is `[0]`.
    private(set) var digits: [UInt8]

    init(_ value: Int) {
        precondition(value >= 0)
        self.init(digits: Array(String(value).utf8).map { $0 - 48 })
    }

    /// From decimal digit values, leading zeros allowed.
    init(digits: [UInt8]) {
        let significant = digits.drop { $0 == 0 }
        self.digits = significant.isEmpty ? [0] : Array(significant)
    }

    static func power(of ten: Int) -> Natural { Natural(digits: [1] + Array(repeating: 0, count: ten)) }

    var isZero: Bool { digits == [0] }

    var description: String { String(decoding: digits.map { $0 + 48 }, as: UTF8.self) }

    /// The value modulo 10, 100 or 1000.
    func remainder(digits count: Int) -> Int {
        digits.suffix(count).reduce(0) { $0 * 10 + Int($1) }
    }

    /// The value with its last three digits zeroed (`value // 1000 * 1000`).
    var thousandsPart: Natural {
        guard digits.count > 3 else { return Natural(0) }
        return Natural(digits: digits.dropLast(3) + [0, 0, 0])
    }

    /// The value times 10ⁿ.
    func shifted(by n: Int) -> Natural { isZero ? self : Natural(digits: digits + Array(repeating: 0, count: n)) }

    static func + (a: Natural, b: Natural) -> Natural {
        var result: [UInt8] = []
        var carry: UInt8 = 0
        var i = a.digits.count - 1, j = b.digits.count - 1
        while i >= 0 || j >= 0 || carry > 0 {
            let sum = (i >= 0 ? a.digits[i] : 0) + (j >= 0 ? b.digits[j] : 0) + carry
            result.append(sum % 10)
            carry = sum / 10
            i -= 1
            j -= 1
        }
        return Natural(digits: result.reversed())
    }

    static func + (a: Natural, b: Int) -> Natural { a + Natural(b) }
}

/// A number as Python's `fractions.Fraction` reads it from the strings the number normaliser
/// builds (decimal digits of any script, at most one point): `mantissa / 10^scale`.
struct DecimalFraction: Sendable {
    var mantissa: Natural
    var scale: Int

    /// Parses `123`, `1.5`, `1.`, `.5` (digits of any script); nil where `Fraction(text)` raises.
    init?(_ text: CodePoints) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0], fraction = parts.count == 2 ? parts[1] : []
        guard whole.allSatisfy(PythonText.isDecimal), fraction.allSatisfy(PythonText.isDecimal),
            !whole.isEmpty || !fraction.isEmpty
        else { return nil }
        let values = (whole + fraction).map { UInt8($0.properties.numericValue!) }
        mantissa = Natural(digits: values)
        scale = fraction.count
    }

    /// The value times 10ⁿ when that is a whole number.
    func integer(times10 n: Int) -> Natural? {
        if n >= scale { return mantissa.shifted(by: n - scale) }
        let drop = scale - n
        guard mantissa.digits.count <= drop ? mantissa.isZero : mantissa.digits.suffix(drop).allSatisfy({ $0 == 0 })
        else { return nil }
        return mantissa.digits.count <= drop ? Natural(0) : Natural(digits: Array(mantissa.digits.dropLast(drop)))
    }
}
