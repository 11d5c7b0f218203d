//===- NvtxPayload.cpp - NVTX payload schemas and NCCL's collective payload -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "nvtx/NvtxPayload.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace hroof {
namespace rt {

namespace {

/// Names longer than this are cut (a name is a label, not data).
constexpr size_t MaxName = 256;
/// Payloads per event read at most (NCCL passes one).
constexpr size_t MaxPayloads = 16;

std::string boundedText(const char *S) {
  if (!S)
    return "";
  return std::string(S, strnlen(S, MaxName));
}

std::string lower(std::string S) {
  for (char &C : S)
    C = char(std::tolower(static_cast<unsigned char>(C)));
  return S;
}

bool has(const std::string &Lower, const char *Word) { return Lower.find(Word) != std::string::npos; }

/// Predefined integer types by size; 0 for the rest (floats, strings,
/// addresses: never a size, a hash or an enum).
uint64_t integerSize(uint64_t Type) {
  switch (Type) {
  case NVTX_PAYLOAD_ENTRY_TYPE_CHAR:
  case NVTX_PAYLOAD_ENTRY_TYPE_UCHAR:
  case NVTX_PAYLOAD_ENTRY_TYPE_INT8:
  case NVTX_PAYLOAD_ENTRY_TYPE_UINT8:
    return 1;
  case NVTX_PAYLOAD_ENTRY_TYPE_SHORT:
  case NVTX_PAYLOAD_ENTRY_TYPE_USHORT:
  case NVTX_PAYLOAD_ENTRY_TYPE_INT16:
  case NVTX_PAYLOAD_ENTRY_TYPE_UINT16:
    return 2;
  case NVTX_PAYLOAD_ENTRY_TYPE_INT:
  case NVTX_PAYLOAD_ENTRY_TYPE_UINT:
  case NVTX_PAYLOAD_ENTRY_TYPE_INT32:
  case NVTX_PAYLOAD_ENTRY_TYPE_UINT32:
    return 4;
  case NVTX_PAYLOAD_ENTRY_TYPE_LONG:
  case NVTX_PAYLOAD_ENTRY_TYPE_ULONG:
    return sizeof(long);
  case NVTX_PAYLOAD_ENTRY_TYPE_LONGLONG:
  case NVTX_PAYLOAD_ENTRY_TYPE_ULONGLONG:
  case NVTX_PAYLOAD_ENTRY_TYPE_INT64:
  case NVTX_PAYLOAD_ENTRY_TYPE_UINT64:
    return 8;
  case NVTX_PAYLOAD_ENTRY_TYPE_SIZE:
    return sizeof(size_t);
  default:
    return 0;
  }
}

/// Little-endian unsigned value of \p Size (1, 2, 4 or 8) bytes at \p P.
uint64_t readUnsigned(const unsigned char *P, uint64_t Size) {
  uint64_t V = 0;
  std::memcpy(&V, P, size_t(Size)); // x86-64 and aarch64: little endian
  return V;
}

} // namespace

uint64_t PayloadSchemas::registerSchema(uint64_t Domain, const nvtxPayloadSchemaAttr_t *A) {
  if (!A || !(A->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES) || !A->entries ||
      !(A->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES) || Schemas.size() >= MaxSchemas)
    return 0;
  uint64_t Id = (A->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID) ? A->schemaId
                                                                           : NextDynamicId++;
  if (!Id)
    return 0;
  Schema S;
  // Only static layouts are read: a dynamic or union schema's offsets
  // depend on the data.
  if ((A->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE) &&
      A->type != NVTX_PAYLOAD_SCHEMA_TYPE_STATIC)
    S.Entries.clear();
  else
    for (size_t I = 0; I < std::min<size_t>(A->numEntries, MaxEntries); ++I) {
      const nvtxPayloadSchemaEntry_t &E = A->entries[I];
      S.Entries.push_back({E.flags, E.type, E.offset, boundedText(E.name)});
    }
  if (A->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE)
    S.StaticSize = A->payloadStaticSize;
  Schemas[{Domain, Id}] = std::move(S);
  return Id;
}

uint64_t PayloadSchemas::registerEnum(uint64_t Domain, const nvtxPayloadEnumAttr_t *A) {
  if (!A || !(A->fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_SCHEMA_ID) || !A->schemaId ||
      Enums.size() >= MaxSchemas)
    return 0;
  Enum E;
  E.Size = (A->fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_SIZE) ? A->sizeOfEnum : sizeof(int);
  if ((A->fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_ENTRIES) && A->entries &&
      (A->fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_NUM_ENTRIES))
    for (size_t I = 0; I < std::min<size_t>(A->numEntries, MaxEnumValues); ++I)
      E.Names[A->entries[I].value] = boundedText(A->entries[I].name);
  Enums[{Domain, A->schemaId}] = std::move(E);
  return A->schemaId;
}

uint64_t PayloadSchemas::sizeOf(uint64_t Domain, uint64_t Type) const {
  if (uint64_t S = integerSize(Type))
    return S;
  auto It = Enums.find({Domain, Type});
  if (It == Enums.end())
    return 0;
  uint64_t S = It->second.Size;
  return S == 1 || S == 2 || S == 4 || S == 8 ? S : 0;
}

bool PayloadSchemas::decodeOne(uint64_t Domain, const nvtxPayloadData_t &D,
                               CollectiveCall &C) const {
  auto It = Schemas.find({Domain, D.schemaId});
  if (It == Schemas.end() || !D.payload)
    return false;
  const Schema &S = It->second;
  // SIZE_MAX: "the tool should figure out the size": the schema's, if given.
  uint64_t Size = D.size == SIZE_MAX ? S.StaticSize : D.size;
  if (!Size)
    return false;
  const auto *Base = static_cast<const unsigned char *>(D.payload);
  CollectiveCall Out;
  uint64_t Next = 0; // natural-alignment offset of an entry without one
  bool NextKnown = true;
  for (size_t I = 0; I < S.Entries.size(); ++I) {
    const Entry &E = S.Entries[I];
    uint64_t ESize = E.Flags ? 0 : sizeOf(Domain, E.Type); // pointers, arrays: not read
    uint64_t Off = E.Offset;
    if (!Off && I > 0) { // no offset given: after the previous one, aligned
      if (!NextKnown || !ESize)
        break;
      Off = (Next + ESize - 1) / ESize * ESize;
    }
    NextKnown = ESize != 0;
    Next = Off + ESize;
    if (!ESize || Off > Size || ESize > Size - Off)
      continue; // past the payload's end, or not a plain integer
    uint64_t V = readUnsigned(Base + Off, ESize);
    std::string Name = lower(E.Name);
    if (has(Name, "message size")) {
      Out.HasBytes = true;
      Out.Bytes = V;
    } else if (has(Name, "communicator") && !has(Name, "parent") && ESize == 8) {
      Out.HasComm = true;
      Out.Comm = V;
    } else if (has(Name, "reduction op")) {
      Out.Op = std::to_string(V);
      auto En = Enums.find({Domain, E.Type});
      if (En != Enums.end()) {
        auto Val = En->second.Names.find(V);
        if (Val != En->second.Names.end())
          Out.Op = Val->second;
      }
    }
  }
  if (!Out.HasBytes)
    return false;
  C = std::move(Out);
  return true;
}

std::optional<CollectiveCall> PayloadSchemas::decode(uint64_t Domain, const nvtxPayloadData_t *Data,
                                                     size_t Count) const {
  if (!Data)
    return std::nullopt;
  for (size_t I = 0; I < std::min(Count, MaxPayloads); ++I) {
    CollectiveCall C;
    if (decodeOne(Domain, Data[I], C))
      return C;
  }
  return std::nullopt;
}

} // namespace rt
} // namespace hroof
