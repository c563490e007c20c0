// Writes the example archives the README's tour uses, with Foundation's own NSKeyedArchiver:
//
//   contact.archive   Foundation value classes only (dictionary, strings, number, date, array, URL):
//                     the demo tenant's policy accepts it
//   payload.archive   the same contact wrapped in a custom class, `Sneaky.Payload`: the demo
//                     policy (Foundation classes only) rejects it without ever instantiating it
//
// Compiled with -module-name Sneaky by examples/make-examples; the output is committed, so the
// tour needs no Swift build. SWIFT_DETERMINISTIC_HASHING=1 keeps the dictionaries' order stable.
import Foundation

final class Payload: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let contact: NSDictionary
    let command: String

    init(contact: NSDictionary, command: String) {
        self.contact = contact
        self.command = command
    }

    func encode(with coder: NSCoder) {
        coder.encode(contact, forKey: "contact")
        coder.encode(command as NSString, forKey: "command")
    }

    required init?(coder: NSCoder) { nil }
}

let folder = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : ".")
let contact: NSDictionary = [
    "name": "Ada Lovelace",
    "email": "ada@example.com",
    "age": 36,
    "born": Date(timeIntervalSince1970: -4_952_476_800),
    "tags": ["math", "engines"] as NSArray,
    "homepage": NSURL(string: "https://example.com/ada")!,
]
let contactData = try NSKeyedArchiver.archivedData(withRootObject: contact, requiringSecureCoding: true)
try contactData.write(to: folder.appendingPathComponent("contact.archive"))
let payload = Payload(contact: contact, command: "rm -rf ~")
let payloadData = try NSKeyedArchiver.archivedData(withRootObject: payload, requiringSecureCoding: true)
try payloadData.write(to: folder.appendingPathComponent("payload.archive"))
print("wrote contact.archive (\(contactData.count) bytes), payload.archive (\(payloadData.count) bytes) in \(folder.path)")
