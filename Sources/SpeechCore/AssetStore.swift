import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where engine assets live on disk, and the app's locale reservations: a cache directory that
/// several processes may use at once (file locks guard installation and reservations).
///
/// The directory is `SPEECH_HARNESS_ASSETS`, else `$XDG_CACHE_HOME/speech-harness/assets`, else
/// `~/.cache/speech-harness/assets`. Tests point their context's ``HarnessContext/assets`` at a
/// temporary directory.
public final class AssetStore: Sendable {
    public let root: URL
    /// How many locales may be reserved at once (`SPEECH_HARNESS_MAX_RESERVED_LOCALES`, default 5).
    public let maximumReservedLocales: Int

    public init(root: URL, maximumReservedLocales: Int? = nil) {
        self.root = root
        self.maximumReservedLocales =
            maximumReservedLocales
            ?? HarnessContext.current.environment.valueOrDefault(HarnessSettings.maximumReservedLocales)
    }

    /// The process's store, from the program's environment.
    public static let standard = AssetStore(environment: .process)

    /// The store `environment`'s settings name.
    public convenience init(environment: HarnessEnvironment) {
        let limit = environment.valueOrDefault(HarnessSettings.maximumReservedLocales)
        if let path = HarnessSettings.assets.text(in: environment.variables) {
            self.init(root: URL(fileURLWithPath: path), maximumReservedLocales: limit)
            return
        }
        let cache =
            environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        self.init(root: cache.appendingPathComponent("speech-harness/assets"), maximumReservedLocales: limit)
    }

    /// The running task's store (``HarnessContext/assets``).
    @available(*, deprecated, message: "read HarnessContext.current.assets; set it on a HarnessContext")
    public static var current: AssetStore { HarnessContext.current.assets }

    /// Why an installation failed.
    public enum InstallError: Error, CustomStringConvertible, Sendable {
        case sourceMissing(package: String, file: String)
        case checksumMismatch(package: String, file: String, expected: String, actual: String)
        case io(path: String, reason: String)

        public var description: String {
            switch self {
            case .sourceMissing(let package, let file): return "asset \(package): source file \(file) is missing"
            case .checksumMismatch(let package, let file, let expected, let actual):
                return "asset \(package): \(file) has SHA-256 \(actual), expected \(expected)"
            case .io(let path, let reason): return "\(path): \(reason)"
            }
        }
    }

    // MARK: Installed packages

    func directory(for package: AssetPackage) -> URL {
        root.appendingPathComponent("packages").appendingPathComponent(package.id).appendingPathComponent(
            "v\(package.version)")
    }

    /// Installed with every file present and its recorded checksum the expected one.
    public func isInstalled(_ package: AssetPackage) -> Bool {
        let manifest = directory(for: package).appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: manifest),
            let recorded = try? JSONDecoder().decode([String: String].self, from: data)
        else { return false }
        return package.files.allSatisfy { file in
            recorded[file.name] == file.sha256
                && FileManager.default.fileExists(
                    atPath: directory(for: package).appendingPathComponent(file.name).path)
        }
    }

    /// The installed file's location, when installed.
    public func installedFile(_ name: String, of package: AssetPackage) -> URL? {
        guard isInstalled(package) else { return nil }
        return directory(for: package).appendingPathComponent(name)
    }

    /// Packages this process is downloading into the store (before their files are copied).
    private let downloads = Locked<[String: Int]>([:])

    /// Marks `packages` as downloading while `body` runs, for ``isInstalling(_:)``.
    public func downloading<T>(_ packages: [AssetPackage], _ body: () async throws -> T) async rethrows -> T {
        downloads.withLock { for package in packages { $0[package.id, default: 0] += 1 } }
        defer {
            downloads.withLock {
                for package in packages {
                    $0[package.id, default: 1] -= 1
                    if $0[package.id] == 0 { $0[package.id] = nil }
                }
            }
        }
        return try await body()
    }

    /// True while some process (this one included) is downloading or installing the package.
    public func isInstalling(_ package: AssetPackage) -> Bool {
        if downloads.withLock({ $0[package.id] != nil }) { return true }
        let path = lockPath("install-" + package.id.replacingOccurrences(of: "/", with: "_"))
        let fd = open(path, O_RDWR | O_CREAT, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return true
    }

    /// Installs `package` from its sources, verifying checksums, on a thread of its own (the
    /// copy and the wait for another installer's lock never block the cooperative pool).
    /// Another process installing the same package at the same time is waited for, not repeated.
    public func install(_ package: AssetPackage, progress: Progress) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                do {
                    try self.installBlocking(package, progress: progress)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.name = "speech-harness asset install"
            thread.start()
        }
    }

    private func installBlocking(_ package: AssetPackage, progress: Progress) throws {
        try withFileLock("install-" + package.id.replacingOccurrences(of: "/", with: "_")) {
            if isInstalled(package) {
                progress.completedUnitCount = progress.totalUnitCount
                return
            }
            let target = directory(for: package)
            let staging = target.deletingLastPathComponent().appendingPathComponent(".staging-\(UUID().uuidString)")
            do {
                try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            } catch {
                throw InstallError.io(path: staging.path, reason: "\(error)")
            }
            defer { try? FileManager.default.removeItem(at: staging) }
            var recorded: [String: String] = [:]
            for file in package.files {
                let bytes: [UInt8]
                switch file.source {
                case .bytes(let b): bytes = b
                case .file(let path):
                    guard let data = FileManager.default.contents(atPath: path) else {
                        throw InstallError.sourceMissing(package: package.id, file: path)
                    }
                    bytes = Array(data)
                }
                let actual = SHA256.hex(bytes)
                guard actual == file.sha256 else {
                    throw InstallError.checksumMismatch(
                        package: package.id, file: file.name, expected: file.sha256, actual: actual)
                }
                let destination = staging.appendingPathComponent(file.name)
                do {
                    try FileManager.default.createDirectory(
                        at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(bytes).write(to: destination)
                } catch {
                    throw InstallError.io(path: destination.path, reason: "\(error)")
                }
                recorded[file.name] = actual
                progress.completedUnitCount += Int64(file.size)
            }
            let manifest = try JSONEncoder().encode(recorded)
            do {
                try manifest.write(to: staging.appendingPathComponent("manifest.json"))
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.moveItem(at: staging, to: target)
            } catch {
                throw InstallError.io(path: target.path, reason: "\(error)")
            }
            progress.completedUnitCount = progress.totalUnitCount
        }
    }

    /// Removes an installed package (for tests and `release`-driven clean-up).
    public func remove(_ package: AssetPackage) {
        try? FileManager.default.removeItem(at: directory(for: package))
    }

    // MARK: Reservations

    private var reservationsFile: URL { root.appendingPathComponent("reservations.json") }

    /// Reserved locale tags, in reservation order.
    public func reservations() -> [String] {
        (try? withFileLock("reservations") { readReservations() }) ?? []
    }

    private func readReservations() -> [String] {
        guard let data = try? Data(contentsOf: reservationsFile),
            let list = try? JSONDecoder().decode([String].self, from: data)
        else { return [] }
        return list
    }

    /// Changes the reservation list under the lock; `body` returns the new list and a result.
    public func updateReservations<T>(_ body: ([String]) throws -> ([String], T)) throws -> T {
        try withFileLock("reservations") {
            let (list, result) = try body(readReservations())
            do {
                try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
                let temporary = root.appendingPathComponent(".reservations-\(UUID().uuidString)")
                try JSONEncoder().encode(list).write(to: temporary)
                // rename(2) replaces atomically, whether or not the file exists yet.
                guard rename(temporary.path, reservationsFile.path) == 0 else {
                    throw InstallError.io(path: reservationsFile.path, reason: String(cString: strerror(errno)))
                }
            } catch {
                throw InstallError.io(path: reservationsFile.path, reason: "\(error)")
            }
            return result
        }
    }

    // MARK: Locks

    private func lockPath(_ name: String) -> String {
        let directory = root.appendingPathComponent(".locks")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name + ".lock").path
    }

    /// Runs `body` holding an exclusive lock shared with other processes.
    func withFileLock<T>(_ name: String, _ body: () throws -> T) throws -> T {
        let path = lockPath(name)
        let fd = open(path, O_RDWR | O_CREAT, 0o644)
        guard fd >= 0 else { throw InstallError.io(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw InstallError.io(path: path, reason: String(cString: strerror(errno))) }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}

extension RecognitionEngine {
    /// Installed when the engine needs no assets for the locale or the store has them.
    public func assetsInstalled(locale: String, store: AssetStore = HarnessContext.current.assets) -> Bool {
        guard supports(locale: locale) else { return false }
        guard let package = assetPackage(for: locale) else { return true }
        return store.isInstalled(package)
    }
}
