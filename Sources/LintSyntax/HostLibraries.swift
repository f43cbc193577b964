// The manifest finds SwiftSyntax and SwiftParser in the toolchain's host folder and defines this
// when they are not there; its warning names the folder it looked in.
#if SWIFT_SYNTAX_HOST_MISSING
    #error(
        "The migration lint needs the toolchain's SwiftSyntax and SwiftParser host libraries (usr/lib/swift/host beside the compiler), and they were not found: the package manifest's warning names the folder it looked in. Use a Swift toolchain that ships them (swift.org toolchains 5.9 and later do)."
    )
#endif
