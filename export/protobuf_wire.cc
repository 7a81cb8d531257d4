// The protobuf wire-format encoder (protobuf_wire.h).
#include "export/protobuf_wire.h"

#include <stdexcept>

namespace collsynth {

namespace {
constexpr int kWireVarint = 0;
constexpr int kWireLengthDelimited = 2;
constexpr int kMaxFieldNumber = (1 << 29) - 1;
}  // namespace

void ProtobufWriter::Varint(std::uint64_t value) {
  while (value >= 0x80) {
    bytes_.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  bytes_.push_back(static_cast<char>(value));
}

void ProtobufWriter::Key(int field, int wire_type) {
  if (field < 1 || field > kMaxFieldNumber) {
    throw std::invalid_argument("protobuf field number " + std::to_string(field) +
                                " outside 1..2^29-1");
  }
  Varint((static_cast<std::uint64_t>(field) << 3) | static_cast<std::uint64_t>(wire_type));
}

void ProtobufWriter::VarintField(int field, std::uint64_t value) {
  Key(field, kWireVarint);
  Varint(value);
}

void ProtobufWriter::SignedField(int field, std::int64_t value) {
  VarintField(field, static_cast<std::uint64_t>(value));
}

void ProtobufWriter::BytesField(int field, std::string_view bytes) {
  Key(field, kWireLengthDelimited);
  Varint(bytes.size());
  bytes_.append(bytes.data(), bytes.size());
}

void ProtobufWriter::PackedVarintField(int field, const std::vector<std::uint64_t>& values) {
  if (values.empty()) return;
  ProtobufWriter payload;
  for (std::uint64_t v : values) payload.Varint(v);
  BytesField(field, payload.bytes());
}

void AppendLengthDelimited(std::string* out, std::string_view message) {
  ProtobufWriter prefix;
  prefix.Varint(message.size());
  out->append(prefix.bytes());
  out->append(message.data(), message.size());
}

}  // namespace collsynth
