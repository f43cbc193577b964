import Conformance
import Foundation
import SpeechCore
@_spi(Harness) import SpeechReference
import Testing

/// Outcomes are values: a failure keeps its type and code, and an expectation is met by value
/// (times to the millisecond, download seconds to the tenth), never by comparing rendered text.
@Suite struct CallOutcomeTests {
    @Test func failuresKeepTheirKindAndCode() {
        #expect(CallFailure(SFSpeechError(.audioDisordered, "x")) == .speech(.audioDisordered))
        #expect(CallFailure(URLError(.networkConnectionLost)) == .foundation(.URLError, code: -1005))
        #expect(CallFailure(CocoaError(.fileWriteOutOfSpace)) == .foundation(.CocoaError, code: 640))
        #expect(CallFailure(EngineError.failed(engine: "e", reason: "r")) == .engine)
        #expect("\(CallFailure(URLError(.networkConnectionLost)))" == "URLError.networkConnectionLost")
        #expect("\(CallOutcome.fails(.speech(.noModel)))" == "fails:noModel")
    }

    @Test func expectationsAreMetByValue() {
        #expect(CallOutcome.returnedTime(1.2344).meets(.returnedTime(1.234)))
        #expect(!CallOutcome.returnedTime(1.236).meets(.returnedTime(1.234)))
        #expect(!CallOutcome.returnedTime(nil).meets(.returnedTime(0)))
        #expect(!CallOutcome.fails(.speech(.noModel)).meets(.fails(.speech(.audioDisordered))))
        let written = DownloadProgressSummary("10 steps over 3.0 s to 100%")
        #expect(written == DownloadProgressSummary(steps: 10, seconds: 3, percent: 100))
        let measured = CallOutcome.downloadProgress(DownloadProgressSummary(steps: 10, seconds: 2.96, percent: 100))
        #expect(measured.meets(.downloadProgress(written)))
        #expect(!measured.meets(.downloadProgress(DownloadProgressSummary(steps: 9, seconds: 3, percent: 100))))
        #expect(!measured.meets(.downloadProgress(nil)))
        #expect(DownloadProgressSummary("10 steps over 3.0 s") == nil)
        #expect(DownloadProgressSummary("10 steps over inf s to 100%") == nil)
    }
}
