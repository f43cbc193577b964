import CLibXML2
import CPocketSphinx
import CSampleRate
import CSndFile
import CSpanDSP
import Testing

/// The C libraries are found through pkg-config and link: a cheap call into each.
@Suite("System libraries")
struct SystemLibraryTests {
    @Test func libsndfileVersion() {
        #expect(String(cString: sf_version_string()).hasPrefix("libsndfile"))
    }

    @Test func libsamplerateNames() {
        #expect(String(cString: src_get_name(Int32(SRC_SINC_BEST_QUALITY))).contains("Sinc"))
    }

    @Test func libxml2ParsesADocument() {
        let text = "<testsuites><testsuite name=\"a\"/></testsuites>"
        let doc = text.withCString { xmlReadMemory($0, Int32(text.utf8.count), "mem.xml", nil, 0) }
        #expect(doc != nil)
        if let doc {
            #expect(String(cString: xmlDocGetRootElement(doc).pointee.name) == "testsuites")
            xmlFreeDoc(doc)
        }
    }

    @Test func pocketSphinxLinks() {
        // The default argument table exists; no model is loaded here (the engine issue does that).
        #expect(ps_args() != nil)
    }

    @Test func spandspG722Initialises() {
        let state = g722_decode_init(nil, 64_000, 0)
        #expect(state != nil)
        if let state { g722_decode_free(state) }
    }
}
