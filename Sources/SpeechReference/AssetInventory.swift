import Foundation
import SpeechCore
import VirtualDevice

/// Installs and tracks the assets modules need, and the app's locale reservations.
///
/// Assets here are real files (engine models, templates, descriptors) copied from a local source
/// into `AssetStore` with checksums; reservations persist in the store and are shared by processes.
public final class AssetInventory {
    /// How far a module's assets are. Ordered by the cases' declaration order, which differs by
    /// release: unsupported < supported < downloading < installed on 26, unsupported < downloading <
    /// supported < installed on 27 (the device's `osRelease`). Apple's pages do not say which order
    /// `<` follows; a synthesized `Comparable` follows the declaration.
    public enum Status: Int, Comparable, Hashable, Sendable {
        case unsupported, supported, downloading, installed

        public static func < (a: Status, b: Status) -> Bool {
            let order = order(
                on: HelperFaults.planted("statusOrderIgnoresRelease") ? .release27 : DeviceSettings.current.osRelease)
            return order.firstIndex(of: a)! < order.firstIndex(of: b)!
        }

        /// The cases in the order the release declares them.
        static func order(on release: OSRelease) -> [Status] {
            switch release {
            case .release26: return [.unsupported, .supported, .downloading, .installed]
            case .release27: return [.unsupported, .downloading, .supported, .installed]
            }
        }
    }

    public static var maximumReservedLocales: Int { HarnessContext.current.assets.maximumReservedLocales }

    /// Reserved locales (possibly the supported variants of what was asked for).
    public static var reservedLocales: [Locale] {
        get async { HarnessContext.current.assets.reservations().map(LocaleSupport.locale) }
    }

    /// Reserves `locale` (its supported equivalent). False when already reserved; throws when no
    /// engine supports it or the reservation count would pass ``maximumReservedLocales``.
    @discardableResult
    public static func reserve(locale: Locale) async throws -> Bool {
        try SettingsCheck.validate()
        guard let supported = LocaleSupport.equivalent(to: locale) else {
            throw SFSpeechError(.cannotAllocateUnsupportedLocale, "no engine supports \(LocaleSupport.tag(locale))")
        }
        return try reserve(tags: [LocaleSupport.tag(supported)]) > 0
    }

    /// Releases a reservation; false when the locale was not reserved.
    @discardableResult
    public static func release(reservedLocale: Locale) async -> Bool {
        let wanted = LocaleSupport.tag(reservedLocale)
        let equivalent = LocaleSupport.equivalent(to: reservedLocale).map(
            LocaleSupport.tag)
        return
            (try? HarnessContext.current.assets.updateReservations { list -> ([String], Bool) in
                guard let index = list.firstIndex(where: { $0 == wanted || $0 == equivalent }) else {
                    return (list, false)
                }
                var copy = list
                copy.remove(at: index)
                return (copy, true)
            }) ?? false
    }

    /// The status of `modules` taken together. Where they differ, the documented precedence
    /// applies: any unsupported, else any downloading, else any supported, else installed.
    public static func status(forModules modules: [any SpeechModule]) async -> Status {
        let statuses = modules.map(status(of:))
        for candidate in [Status.unsupported, .downloading, .supported] where statuses.contains(candidate) {
            return candidate
        }
        return .installed
    }

    /// A request that installs what `modules` still need, or nil when everything is installed.
    /// Reserves the locales it installs for; throws when a module is unsupported or the
    /// reservations would pass the maximum.
    public static func assetInstallationRequest(
        supporting modules: [any SpeechModule]
    ) async throws -> AssetInstallationRequest? {
        try SettingsCheck.validate()
        var packages: [AssetPackage] = []
        var locales: [String] = []
        for module in modules {
            switch status(of: module) {
            case .unsupported:
                let name = channel(of: module)?.moduleName ?? "\(type(of: module))"
                throw SFSpeechError(
                    .cannotAllocateUnsupportedLocale, "\(name) is not supported by any installed engine")
            case .installed:
                continue
            case .supported, .downloading:
                guard let needs = channel(of: module)?.assetNeeds, let engine = needs.engine,
                    let package = engine.assetPackage(for: needs.locale)
                else { continue }
                if !packages.contains(package) { packages.append(package) }
                if !locales.contains(package.locale) { locales.append(package.locale) }
            }
        }
        guard !packages.isEmpty else { return nil }
        try reserve(tags: locales)
        return AssetInstallationRequest(packages: packages, store: HarnessContext.current.assets)
    }

    // MARK: Internals

    static func channel(of module: any SpeechModule) -> (any ModuleChannel)? {
        (module as? ModuleChannelOwner)?.moduleChannel
    }

    static func status(of module: any SpeechModule) -> Status {
        guard let channel = channel(of: module) else { return .unsupported }
        guard let needs = channel.assetNeeds else { return .installed }
        guard let engine = needs.engine, engine.supports(locale: needs.locale) else { return .unsupported }
        guard let package = engine.assetPackage(for: needs.locale) else { return .installed }
        let store = HarnessContext.current.assets
        if store.isInstalled(package) { return .installed }
        if store.isInstalling(package) { return .downloading }
        return .supported
    }

    /// Adds the tags not yet reserved; returns how many were added.
    @discardableResult
    static func reserve(tags: [String]) throws -> Int {
        let store = HarnessContext.current.assets
        return try store.updateReservations { list -> ([String], Int) in
            let missing = tags.filter { !list.contains($0) }
            guard list.count + missing.count <= store.maximumReservedLocales else {
                throw SFSpeechError(
                    .tooManyAssetLocalesAllocated,
                    "reserving \(missing.joined(separator: ", ")) would make \(list.count + missing.count) of at most \(store.maximumReservedLocales)"
                )
            }
            return (list + missing, missing.count)
        }
    }
}

/// Installs assets for a set of modules, reporting progress in bytes.
public final class AssetInstallationRequest: NSObject, ProgressReporting, @unchecked Sendable {
    public let progress: Progress
    let packages: [AssetPackage]
    let store: AssetStore
    private let history = Locked<[DownloadProgress]>([])

    /// One change of ``progress`` and when it came (seconds of the device's clock since the
    /// download started), for tests of a slow download.
    public struct DownloadProgress: Sendable, Hashable {
        public var seconds: Double
        public var fraction: Double
    }

    init(packages: [AssetPackage], store: AssetStore) {
        self.packages = packages
        self.store = store
        progress = Progress(totalUnitCount: Int64(max(1, packages.reduce(0) { $0 + $1.totalBytes })))
    }

    /// The progress the last ``downloadAndInstall()`` reported, in order.
    @_spi(Harness) public var progressHistory: [DownloadProgress] { history.withLock { $0 } }

    /// Downloads and installs every package (from local sources, checksums verified), under the
    /// device's download conditions (`AssetDownloads`). Returns when done or failed; a failed
    /// download installs nothing.
    public func downloadAndInstall() async throws {
        let total = progress.totalUnitCount
        history.withLock { $0 = [] }
        let download = AssetDownload(
            conditions: HarnessContext.current.device.assetDownloads, clock: HarnessContext.current.clock)
        try await store.downloading(packages) {
            try await download.run(
                bytes: total,
                report: { seconds, completed in
                    self.progress.completedUnitCount = completed
                    self.history.withLock {
                        $0.append(DownloadProgress(seconds: seconds, fraction: Double(completed) / Double(total)))
                    }
                },
                install: {
                    for package in self.packages {
                        let share = Progress(totalUnitCount: Int64(max(1, package.totalBytes)))
                        try await self.store.install(package, progress: share)
                    }
                })
        }
    }
}
