// swift-tools-version:6.0
import PackageDescription

let package = Package(name: "AppB", targets: [.executableTarget(name: "AppB")])
