import Foundation
import SpeechCore
import VirtualDevice

/// A download under the device's conditions (`AssetDownloads`): when progress is reported, how
/// long it takes on the device's clock, and which error ends it. Installing the files is the
/// caller's; a failed download never reaches it.
struct AssetDownload {
    var conditions: AssetDownloads
    var clock: any Clock<Duration>

    /// Runs the download of `bytes`; `report` gets the seconds since the start and the bytes
    /// done at each step, `install` runs once every byte has arrived.
    func run(
        bytes: Int64, report: (Double, Int64) -> Void, install: () async throws -> Void
    ) async throws {
        try await download(on: self.clock, bytes: bytes, report: report, install: install)
    }

    private func download(
        on clock: some Clock<Duration>, bytes: Int64, report: (Double, Int64) -> Void, install: () async throws -> Void
    ) async throws {
        let start = clock.now
        let elapsed = { start.duration(to: clock.now).seconds }
        switch conditions {
        case .immediate:
            try await install()
        case .offline:
            throw URLError(.notConnectedToInternet)
        case .diskFull:
            throw CocoaError(.fileWriteOutOfSpace)
        case .failMidway:
            report(elapsed(), bytes / 2)
            throw URLError(.networkConnectionLost)
        case .slow(let seconds):
            for step in 1..<10 {
                try await clock.sleep(for: .seconds(seconds / 10))
                report(elapsed(), bytes * Int64(step) / 10)
            }
            try await clock.sleep(for: .seconds(seconds / 10))
            try await install()
        }
        report(elapsed(), bytes)
    }
}
