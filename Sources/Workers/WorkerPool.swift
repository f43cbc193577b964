import Foundation
import SpeechCore

/// The processes of one worker engine. A session gets an idle process to itself when there is one
/// or one can be started (at most `maximum`); beyond that it shares the least busy process, whose
/// calls then take turns (so a session that is never closed costs a process's turn, not a hang).
actor WorkerPool: EngineProcesses {
    let configuration: WorkerChannel.Configuration
    let maximum: Int
    private var channels: [WorkerChannel] = []
    private var leases: [ObjectIdentifier: Int] = [:]
    private var opening = 0
    private var retiredPeaks: [Int] = []
    private(set) var loadSeconds: Double?
    private(set) var negotiatedProtocol: Int?

    init(channel configuration: WorkerChannel.Configuration, maximum: Int) {
        self.configuration = configuration
        self.maximum = maximum
    }

    nonisolated var commandExists: Bool {
        guard let first = configuration.command.first else { return false }
        return FileManager.default.isExecutableFile(atPath: first)
            && configuration.command.dropFirst().allSatisfy {
                !$0.hasSuffix(".py") || FileManager.default.fileExists(atPath: $0)
            }
    }

    func lease() async throws -> WorkerChannel {
        var healthy: [WorkerChannel] = []
        for channel in channels {
            if await channel.isHealthy {
                healthy.append(channel)
            } else if leases[ObjectIdentifier(channel)] ?? 0 == 0 {
                await retire(channel)
            }
        }
        if let idle = healthy.first(where: { leases[ObjectIdentifier($0)] ?? 0 == 0 }) { return take(idle) }
        if channels.count + opening < maximum || healthy.isEmpty {
            opening += 1
            defer { opening -= 1 }
            let channel = try await WorkerChannel.open(configuration)
            loadSeconds = await channel.loadSeconds
            negotiatedProtocol = await channel.version
            channels.append(channel)
            return take(channel)
        }
        return take(healthy.min { leases[ObjectIdentifier($0)] ?? 0 < leases[ObjectIdentifier($1)] ?? 0 }!)
    }

    private func take(_ channel: WorkerChannel) -> WorkerChannel {
        leases[ObjectIdentifier(channel), default: 0] += 1
        return channel
    }

    func giveBack(_ channel: WorkerChannel) async {
        let id = ObjectIdentifier(channel)
        leases[id] = max(0, (leases[id] ?? 1) - 1)
        if leases[id] == 0, !(await channel.isHealthy) { await retire(channel) }
    }

    /// Stops the processes no session holds.
    public func shutdown() async -> [Int] {
        for channel in channels where leases[ObjectIdentifier(channel)] ?? 0 == 0 { await retire(channel) }
        defer { retiredPeaks = [] }
        return retiredPeaks
    }

    /// The resident memory of the running workers, summed; nil when none runs.
    public func residentBytes() async -> Int? {
        var total: Int?
        for channel in channels {
            if let bytes = await channel.residentBytes { total = (total ?? 0) + bytes }
        }
        return total
    }

    private func retire(_ channel: WorkerChannel) async {
        channels.removeAll { $0 === channel }
        leases[ObjectIdentifier(channel)] = nil
        if let peak = await channel.shutdown() { retiredPeaks.append(peak) }
    }
}
