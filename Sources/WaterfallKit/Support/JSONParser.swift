/// A strict JSON parser (RFC 8259) into `JSONValue`, keeping object keys in file order. Errors name the
/// line and column, so a config mistake can be pointed at. A UTF-8 byte-order mark at the start is skipped
/// (editors on Windows write one); a key written twice in one object is an error, not "the last one wins".
struct JSONParser {
    struct Error: Swift.Error, Equatable, CustomStringConvertible {
        var line: Int
        var column: Int
        var message: String
        var description: String { "\(line):\(column): \(message)" }
    }

    private let bytes: [UInt8]
    private var position = 0
    /// Where the text starts: after the byte-order mark, if there is one (columns count from there).
    private let start: Int
    /// Nesting limit: a hostile file must not exhaust the stack.
    private static let maximumDepth = 256

    static func parse(_ text: String) throws(Error) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    /// The bytes as UTF-8 (a malformed sequence in a string becomes U+FFFD, as `String(decoding:)` does).
    static func parse(bytes: [UInt8]) throws(Error) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        position = start
    }

    private mutating func value(depth: Int) throws(Error) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nested too deeply") }
        guard let byte = peek() else { throw error("unexpected end of file") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func object(depth: Int) throws(Error) -> JSONValue {
        position += 1
        var members: [(String, JSONValue)] = []
        var keyPositions: [String: Int] = [:]
        var keyPositionList: [Int] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { position += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
            let keyPosition = position
            let key = try string()
            // Small objects (nearly all) look for a duplicate among their members; large ones by hash.
            let first: Int?
            if members.count < 16 {
                first = members.firstIndex { $0.0 == key }.map { keyPositionList[$0] }
            } else {
                if keyPositions.isEmpty { for (index, member) in members.enumerated() { keyPositions[member.0] = keyPositionList[index] } }
                first = keyPositions.updateValue(keyPosition, forKey: key)
            }
            if let first { throw error("duplicate key '\(key)' (first at line \(location(of: first).line))", at: keyPosition) }
            keyPositionList.append(keyPosition)
            skipWhitespace()
            try expect(":")
            skipWhitespace()
            members.append((key, try value(depth: depth + 1)))
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { position += 1; continue }
            try expect("}")
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(Error) -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { position += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { position += 1; continue }
            try expect("]")
            return .array(elements)
        }
    }

    private mutating func string() throws(Error) -> String {
        position += 1
        // Most strings hold no escape: one copy of their bytes.
        var end = position
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            defer { position = end + 1 }
            return String(decoding: bytes[position..<end], as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []  // unescaped UTF-8 collected in runs
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while let byte = peek() {
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                scalars.append(try escape())
            case 0..<0x20:
                position -= 1
                throw error("control character in a string (escape it)")
            default:
                run.append(byte)
            }
        }
        throw error("unterminated string")
    }

    private mutating func escape() throws(Error) -> Unicode.Scalar {
        guard let byte = peek() else { throw error("unterminated string") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try hex4()
            if (0xD800..<0xDC00).contains(first) {
                guard peek() == UInt8(ascii: "\\") else { throw error("unpaired surrogate") }
                position += 1
                try expect("u")
                let second = try hex4()
                guard (0xDC00..<0xE000).contains(second) else { throw error("unpaired surrogate") }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else { throw error("unpaired surrogate") }
            return scalar
        default:
            position -= 1
            throw error("unknown escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func hex4() throws(Error) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = byte.hexDigitValue.map(UInt32.init) else { throw error("bad \\u escape") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private mutating func number() throws(Error) -> JSONValue {
        let numberStart = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), Self.isDigit(first) else { throw error("bad number") }
        if first == UInt8(ascii: "0") { position += 1 } else { skipDigits() }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let digit = peek(), Self.isDigit(digit) else { throw error("bad number") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), Self.isDigit(digit) else { throw error("bad number") }
            skipDigits()
        }
        let text = String(decoding: bytes[numberStart..<position], as: UTF8.self)
        if isInteger { return Int(text).map { .int($0) } ?? .bigNumber(text) }
        guard let double = Double(text), double.isFinite else { return .bigNumber(text) }
        return .double(double)
    }

    private mutating func skipDigits() {
        while let byte = peek(), Self.isDigit(byte) { position += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private mutating func literal(_ word: String) throws(Error) {
        for expected in word.utf8 {
            guard peek() == expected else { throw error("unexpected word (expected \(word))") }
            position += 1
        }
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(Error) {
        guard peek() == UInt8(character.value) else {
            throw error(peek() == nil ? "unexpected end of file (expected '\(character)')" : "expected '\(character)'")
        }
        position += 1
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private func error(_ message: String, at offset: Int? = nil) -> Error {
        let (line, column) = location(of: offset ?? position)
        return Error(line: line, column: column, message: message)
    }

    /// The line and column (in characters, from 1) of a byte offset.
    private func location(of offset: Int) -> (line: Int, column: Int) {
        let end = min(offset, bytes.count)
        var line = 1, lineStart = min(start, end)
        for index in lineStart..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return (line, String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1)
    }
}
