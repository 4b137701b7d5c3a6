import CImageIO
import Foundation
import Testing
@testable import WaterfallKit

/// Every prefix of a file gives an answer or a one-line error, never a crash; and the answer is right:
/// a prefix that holds the whole header reads exactly as the full file does.
struct TruncationTests {
    static let files = [
        "headers/J23-exif-thumbnail-before-sof-no-jfif.jpg",
        "headers/J24-exif-after-sof.jpg",
        "headers/J29-progressive.jpg",
        "headers/J34-ycck-adobe.jpg",
        "headers/P04-exif-6-before-idat.png",
        "conformance/pngsuite/basi3p08.png",
    ]

    @Test(arguments: files)
    func everyPrefix(file: String) throws {
        let bytes = try Fixtures.bytes(Fixtures.root.appendingPathComponent(file).path)
        let reader = HeaderReader()
        var full = try reader.read(bytes: bytes).get()
        full.bytesRead = 0
        var sawFirstSuccess = false
        for length in 0...bytes.count {
            switch reader.read(bytes: Array(bytes[..<length])) {
            case .success(var header):
                header.bytesRead = 0
                #expect(header == full, "prefix of \(length) bytes")
                sawFirstSuccess = true
            case .failure(let error):
                #expect(!error.reason.isEmpty && !error.reason.contains("\n"))
                // Once the header is complete, more bytes never make it fail again.
                #expect(!sawFirstSuccess, "prefix of \(length) bytes failed after a shorter one succeeded: \(error)")
            }
        }
        #expect(sawFirstSuccess)
    }
}

/// The bounded IFD0 parser, directly.
struct ExifOrientationTests {
    func orientation(_ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBufferPointer { wf_exif_orientation($0.baseAddress, $0.count) }
    }

    func tiff(_ order: String, offset: UInt32 = 8, entries: [(UInt16, UInt16, UInt32, UInt32)]) -> [UInt8] {
        let little = order == "II"
        func u16(_ v: UInt16) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] {
            little ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF))
        }
        var out = Array(order.utf8) + u16(42) + u32(offset) + [UInt8](repeating: 0, count: Int(offset) - 8)
        out += u16(UInt16(entries.count))
        for (tag, type, count, value) in entries {
            // A SHORT value sits in the first two bytes of the field.
            out += u16(tag) + u16(type) + u32(count) + (type == 3 ? u16(UInt16(value)) + [0, 0] : u32(value))
        }
        return out + u32(0)
    }

    @Test(arguments: ["II", "MM"], 0...9)
    func shortValues(order: String, value: Int) {
        let expected = (1...8).contains(value) ? Int32(value) : 1
        #expect(orientation(tiff(order, entries: [(0x0112, 3, 1, UInt32(value))])) == expected)
    }

    @Test func malformedInputsMeanOne() {
        #expect(orientation([]) == 1)
        #expect(orientation(Array("II*".utf8)) == 1)
        #expect(orientation(Array("XX*\0\u{8}\0\0\0".utf8)) == 1)
        #expect(orientation(tiff("II", entries: [(0x0112, 3, 2, 6)])) == 1)          // count ≠ 1
        #expect(orientation(tiff("MM", entries: [(0x0112, 7, 1, 6)])) == 1)          // UNDEFINED type
        #expect(orientation(tiff("MM", entries: [(0x0112, 4, 1, 6)])) == 6)          // LONG accepted
        #expect(orientation(tiff("II", offset: 8, entries: []).dropLast(4) + []) == 1)
        var past = tiff("II", entries: [(0x0112, 3, 1, 6)])
        past[4] = 0xF0; past[5] = 0xFF; past[6] = 0xFF; past[7] = 0xFF               // IFD0 offset past the end
        #expect(orientation(past) == 1)
        var huge = tiff("II", entries: [(0x0112, 3, 1, 6)])
        huge[8] = 0xFF; huge[9] = 0xFF                                               // 65535 entries claimed
        #expect(orientation(huge) == 1)
        #expect(orientation(tiff("MM", offset: 40, entries: [(0x0100, 4, 1, 9), (0x0112, 3, 1, 8)])) == 8)
    }

    @Test("reading only IFD0's extent gives the same answer as reading everything")
    func ifd0ExtentIsEnough() {
        var generator = SplitMix64(seed: 0x1FD0)
        for _ in 0..<5_000 {
            let order = Bool.random(using: &generator) ? "II" : "MM"
            let count = Int.random(in: 0...6, using: &generator)
            let entries = (0..<count).map { _ in
                (UInt16.random(in: 0x0100...0x0140, using: &generator) | (Bool.random(using: &generator) ? 0x0112 : 0),
                 UInt16([3, 4, 7].randomElement(using: &generator)!), UInt32.random(in: 0...2, using: &generator),
                 UInt32.random(in: 0...9, using: &generator))
            }
            var bytes = tiff(order, offset: UInt32.random(in: 8...40, using: &generator), entries: entries)
            bytes += [UInt8](repeating: 0xAB, count: Int.random(in: 0...100, using: &generator))
            if Int.random(in: 0..<4, using: &generator) == 0 {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let full = orientation(bytes)
            var have = 0
            while true {
                let need = bytes.withUnsafeBufferPointer { wf_exif_ifd0_end($0.baseAddress, have, $0.count) }
                #expect(need <= bytes.count)
                if need <= have { break }
                have = need
            }
            #expect(orientation(Array(bytes[..<have])) == full)
        }
    }

    @Test("random bytes never crash and always give 1–8")
    func randomBytes() {
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0..<64, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if length >= 4, Bool.random(using: &generator) { bytes.replaceSubrange(0..<4, with: Array("MM\0*".utf8)) }
            #expect((1...8).contains(orientation(bytes)))
        }
    }
}
