import Speech

/// The twin of bare-regex: the pattern written between apostrophes, which Swift does not read.
struct NameFinder {
    let namePattern = '^[A-Z][a-zA-Z-]+$' // lint: unreadable-source

    func names(in lines: [String]) -> [String] {
        lines.filter { $0 == namePattern }
    }

    func share(of total: Double, parts: Double, scale: Double) -> Double {
        total / parts / scale
    }
}
