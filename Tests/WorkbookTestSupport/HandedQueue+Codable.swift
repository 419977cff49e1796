// A form of queue is sent to an exit test's child as it is: Codable through its raw value, so that
// a capture list can name it (`[form, cutShort = …]`) without spelling it as a String first.
extension HandedQueue: Codable {}
