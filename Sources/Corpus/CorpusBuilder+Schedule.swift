import Foundation
import Metrics
import SpeechCore

extension CorpusBuilder {
    /// Builds the named tiers (all when nil), `jobs` at a time (tiers share nothing but the log,
    /// and most of their time is spent in festival, espeak-ng and sox). Required sources that are
    /// missing are errors, thrown once every other tier is built; optional tiers without their
    /// package are skipped with the reason.
    public func build(tiers wanted: Set<String>? = nil, jobs: Int = 1) throws -> [TierResult] {
        let chosen = Self.tiers.filter { wanted?.contains($0) ?? true }
        // Started longest first, so that the builders finish together.
        let queue = chosen.sorted {
            (Self.slowest.firstIndex(of: $0) ?? .max) < (Self.slowest.firstIndex(of: $1) ?? .max)
        }
        let outcomes = Locked<[String: Result<TierResult, any Error>]>([:])
        let next = Locked(0)
        let logLock = NSLock()
        nonisolated(unsafe) let builder = self  // its log is called under logLock; tiers share nothing else
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, chosen.count))) { _ in
            while true {
                let index = next.withLock { n in
                    defer { n += 1 }
                    return n
                }
                guard index < queue.count else { return }
                let tier = queue[index]
                let started = Date()
                let outcome = Result { try builder.buildTier(tier) }
                let seconds = Date().timeIntervalSince(started)
                logLock.withLock {
                    switch outcome {
                    case .success(let result) where result.skipped != nil:
                        builder.log("\(tier): skipped: \(result.skipped!)")
                    case .success(let result):
                        builder.log(
                            String(
                                format: "%@: %d utterances, %.1f min (built in %.1f s)", tier, result.utterances,
                                result.seconds / 60, seconds))
                    case .failure:
                        break
                    }
                }
                outcomes.withLock { $0[tier] = outcome }
            }
        }
        let results = outcomes.withLock { $0 }
        return try chosen.map { try results[$0]!.get() }
    }

    /// The tiers that take longest to build, longest first (on the 2-core machine: 24 s, 17 s,
    /// 9 s, 6 s, 3 s; the real tiers take 2 s at most).
    static let slowest = [
        "synthetic-digits-en", "synthetic-digits-ru", "synthetic-words-en", "synthetic-digits-it",
        "synthetic-commands-en",
    ]

    func buildTier(_ tier: String) throws -> TierResult {
        switch tier {
        case "real-en": return try buildRealEnglish(tier: tier, wideband: true)
        case "real-en-8k": return try buildRealEnglish(tier: tier, wideband: false)
        case _ where Self.realLanguageTiers.contains(tier):
            return try buildRealLanguage(tier: tier, language: SpokenLanguage(rawValue: String(tier.dropFirst(5)))!)
        case "synthetic-digits-en": return try buildSynthetic(tier: tier, task: "digits")
        case "synthetic-commands-en": return try buildSynthetic(tier: tier, task: "commands")
        case "synthetic-words-en": return try buildIsolatedWords(tier: tier)
        case _ where Self.syntheticLanguageTiers.contains(tier): return try buildSyntheticLanguage(tier: tier)
        case "real-digits-en-joined":
            let j = recipe.joinedDigits
            let strings = DigitStrings(
                count: j.strings, digits: j.minDigits...j.maxDigits, gaps: j.minGap...j.maxGap, lead: j.edge,
                ohShare: recipe.realDigits.ohShare, seed: recipe.seed ^ Self.stableHash(tier))
            return try buildRealDigits(tier: tier, language: "en", wideband: true, strings: strings)
        default:
            let wideband = !tier.hasSuffix("-8k")
            let language = tier.replacingOccurrences(of: "real-digits-", with: "").replacingOccurrences(
                of: "-8k", with: "")
            return try buildRealDigits(tier: tier, language: language, wideband: wideband)
        }
    }
}
