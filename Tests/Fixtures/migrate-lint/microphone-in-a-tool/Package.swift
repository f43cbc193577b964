// swift-tools-version:6.0
import PackageDescription

let package = Package(name: "Tool", targets: [.executableTarget(name: "Tool")])
