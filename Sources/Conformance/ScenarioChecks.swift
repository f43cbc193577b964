import CoreMedia
@_spi(Harness) import SpeechReference

/// The checks of a running scenario: what the handler, the attributes, the volatile range and
/// the streams must show at a step, and the rules every scenario ends with.
extension ScenarioExecution {
    func checkHandler(_ check: ScenarioStep.HandlerCheck, index: Int, property: CMTimeRange?) {
        let calls = ranges.calls
        let ok: Bool
        switch check {
        case .changedEnd: ok = calls.contains { $0.changedEnd }
        case .quietSinceMark: ok = calls.count == handler.mark
        case .oldQuiet: ok = !calls[handler.replacedAt...].contains { $0.generation < handler.generation }
        case .newCalled: ok = calls[handler.replacedAt...].contains { $0.generation == handler.generation }
        case .matchesProperty: ok = calls.last.map { $0.range == property } ?? (property == nil)
        case .none: ok = calls.isEmpty
        case .changedStartAtLeast(let bound):
            ok = calls.contains { $0.changedStart && $0.range.start.seconds >= bound - 1e-6 }
        }
        if !ok {
            let seen = calls.suffix(4).map {
                "\($0.range.start.seconds)–\($0.range.end.seconds) s\($0.changedStart ? "S" : "")\($0.changedEnd ? "E" : "")"
            }
            problems.append(
                "step \(index): handler check \(check) failed (\(calls.count) calls, last: \(seen.joined(separator: ", ")))"
            )
        }
    }

    /// Attribute rules of the published results with text.
    func checkAttributes(_ check: ScenarioStep.AttributeCheck, of transcriber: SpeechTranscriber, index: Int) {
        let results = transcriber.publishedResults.filter { !$0.text.characters.isEmpty }
        guard !results.isEmpty else {
            return problems.append("step \(index): no results with text to check attributes on")
        }
        let runs = results.flatMap { result in
            result.text.runs.filter { !result.text[$0.range].characters.allSatisfy(\.isWhitespace) }
        }
        let ok: Bool
        switch check {
        case .time: ok = runs.allSatisfy { $0.audioTimeRange != nil }
        case .notime: ok = runs.allSatisfy { $0.audioTimeRange == nil }
        case .confidence: ok = runs.allSatisfy { $0.transcriptionConfidence != nil }
        case .noconfidence: ok = runs.allSatisfy { $0.transcriptionConfidence == nil }
        case .severalAlternatives: ok = results.contains { $0.alternatives.count > 1 }
        case .oneAlternative: ok = results.allSatisfy { $0.alternatives.count == 1 }
        case .timesInRange:
            ok = results.allSatisfy { result in
                result.text.runs.allSatisfy { run in
                    guard let time = run.audioTimeRange else { return true }
                    return time.start >= result.range.start && time.end <= result.range.end
                }
            }
        }
        if !ok {
            problems.append("step \(index): attribute check '\(check.rawValue)' failed on \(results.count) results")
        }
    }

    func checkVolatileRange(_ check: ScenarioStep.RangeCheck, range: CMTimeRange?, index: Int) {
        let ok: Bool
        switch (check, range) {
        case (.none, let range): ok = range == nil
        case (.startAtLeast(let bound), let range?): ok = range.start.seconds >= bound - 1e-6
        case (.endAtLeast(let bound), let range?): ok = range.end.seconds >= bound - 1e-6
        case (_, nil): ok = false
        }
        if !ok {
            let seen = range.map { "\($0.start.seconds)–\($0.end.seconds)" } ?? "nil"
            problems.append("step \(index): volatile range \(seen), expected \(check)")
        }
    }

    func streamState(_ transcriber: SpeechTranscriber) -> ScenarioStep.StreamState {
        transcriber.streamFinished ? (transcriber.streamError == nil ? .ended : .failed) : .open
    }

    func finalText(_ transcriber: SpeechTranscriber) -> String {
        transcriber.publishedResults.filter(\.isFinal).map { String($0.text.characters) }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    /// The scenario's closing expectations, and the rules every scenario keeps unless it opts out.
    func checkFinal() async {
        let expect = scenario.expect
        let exactOnly = Set(scenario.exact ?? [.finalText])
        if let text = expect.finalText, exact || !exactOnly.contains(.finalText), let transcriber = transcribers.first {
            let got = finalText(transcriber)
            if got != text { problems.append("final text \"\(got)\", expected \"\(text)\"") }
        }
        if let wanted = expect.streams {
            for (i, transcriber) in transcribers.enumerated() where streamState(transcriber) != wanted {
                problems.append(
                    "stream of module \(i) \(streamState(transcriber).rawValue), expected \(wanted.rawValue)")
            }
        }
        if expect.resultRules ?? true {
            for (i, transcriber) in transcribers.enumerated() {
                problems += ResultRules.problems(in: transcriber.publishedResults, module: i)
            }
        }
        if expect.volatileRangeMonotonic ?? true {
            for (a, b) in zip(ranges.all, ranges.all.dropFirst()) where b.start < a.start {
                problems.append("volatile range start moved back from \(a.start.seconds) to \(b.start.seconds)")
                break
            }
        }
        if expect.noWaiters ?? true, await analyzer.pendingWaiterCount != 0 {
            problems.append("\(await analyzer.pendingWaiterCount) callers still waiting after cancelAndFinishNow")
        }
        if expect.hadVolatileResults == true, exact, let transcriber = transcribers.first,
            !transcriber.publishedResults.contains(where: { !$0.isFinal })
        {
            problems.append("no volatile results")
        }
    }
}
