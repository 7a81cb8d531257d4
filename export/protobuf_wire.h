// A minimal protocol-buffers wire-format encoder (protobuf.dev, "Encoding"): varints,
// field keys, varint scalars, length-delimited fields (strings, bytes, embedded messages),
// packed repeated varints, and the varint length prefix that frames a stream of messages
// (Chakra ET files, export/chakra_et.h). Only what the Chakra writer needs; there is no
// decoder here (the tests decode with their own, independent one).
//
// Why not libprotobuf: the Chakra records use five wire features, so a writer of a few dozen
// lines keeps the build free of protoc code generation and of a new package in setup and CI,
// and its output is deterministic byte for byte (tests compare it).
// Cost: linear in the bytes written. Never prints.
#ifndef COLLSYNTH_EXPORT_PROTOBUF_WIRE_H_
#define COLLSYNTH_EXPORT_PROTOBUF_WIRE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace collsynth {

// Appends one message's fields to a byte string. Field numbers must be in 1..2^29-1
// (std::invalid_argument otherwise).
class ProtobufWriter {
 public:
  // Base-128 varint, least significant group first.
  void Varint(std::uint64_t value);
  // A varint field (wire type 0): uint64, and int32/int64 as their 64-bit two's complement
  // (the protobuf rule, so a negative int32 takes 10 bytes).
  void VarintField(int field, std::uint64_t value);
  void SignedField(int field, std::int64_t value);
  // A length-delimited field (wire type 2): string, bytes or an embedded message's bytes.
  void BytesField(int field, std::string_view bytes);
  // A packed repeated varint field (wire type 2); nothing when `values` is empty (proto3).
  void PackedVarintField(int field, const std::vector<std::uint64_t>& values);

  const std::string& bytes() const { return bytes_; }
  std::string Take() { return std::move(bytes_); }

 private:
  void Key(int field, int wire_type);
  std::string bytes_;
};

// Appends `message` to `out` preceded by its length as a varint (protobuf's
// writeDelimitedTo framing).
void AppendLengthDelimited(std::string* out, std::string_view message);

}  // namespace collsynth

#endif  // COLLSYNTH_EXPORT_PROTOBUF_WIRE_H_
