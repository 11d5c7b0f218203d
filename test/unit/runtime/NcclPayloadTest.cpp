//===- NcclPayloadTest.cpp - NCCL's NVTX calls replayed: collective bytes --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Replays the NVTX calls NCCL (2.19 and later) makes, in its order: the
// "NCCL" domain's creation, the reduction-op enum's registration, an init
// range pushed without payload and popped with one (nvtxRangePopPayload),
// each API call's registered name, its payload schema (registered at its
// first call), its range pushed with an NVTX_PAYLOAD_TYPE_EXT payload, the
// kernel launch inside it, the pop; and a group (ncclGroupStart, calls,
// ncclGroupEnd with the launch). The CUPTI-reported calls go through
// dispatchNvtx as fake callback data (nvtxDomainRangePushEx with the
// caller's attributes set, as Nvtx.cpp's wrapper of NVTX's slot sets them);
// the payload extension's calls through the functions Nvtx.cpp installs in
// NVTX's slots. The payload structs and
// schemas are laid out as NCCL's nvtx_payload_schemas.h lays out its own.
#include "nvtx/NvtxCallbacks.h"
#include "nvtx/NvtxPayload.h"
#include "nvtx/NvtxRanges.h"
#include "profile/Profile.h"

#include "hroof/ProfileKeys.h"

#include <generated_nvtx_meta.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

using namespace hroof;
using namespace hroof::rt;
namespace pk = hroof::profile_keys;

namespace {

constexpr uint64_t Main = 101;
constexpr uint64_t SidStart = NVTX_PAYLOAD_SCHEMA_ID_STATIC_START;
constexpr uint64_t SidCommInitRank = SidStart + 0, SidAllReduce = SidStart + 5;
constexpr uint64_t RedOpEnum = SidStart + 24;

struct CommInitRankPayload {
  uint64_t newcomm;
  int nranks, myrank, cudaDev;
};
struct AllReducePayload {
  uint64_t comm;
  size_t bytes;
  int op; // ncclRedOp_t
};

const nvtxPayloadSchemaEntry_t CommInitRankSchema[] = {
    {0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "NCCL communicator ID", nullptr, 0,
     offsetof(CommInitRankPayload, newcomm), nullptr, nullptr},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_INT, "No. of ranks", nullptr, 0,
     offsetof(CommInitRankPayload, nranks), nullptr, nullptr},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_INT, "Rank", nullptr, 0, offsetof(CommInitRankPayload, myrank),
     nullptr, nullptr},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_INT, "CUDA device", nullptr, 0,
     offsetof(CommInitRankPayload, cudaDev), nullptr, nullptr}};
const nvtxPayloadSchemaEntry_t AllReduceSchema[] = {
    {0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "NCCL communicator ID", nullptr, 0,
     offsetof(AllReducePayload, comm), nullptr, nullptr},
    {0, NVTX_PAYLOAD_ENTRY_TYPE_SIZE, "Message size [bytes]", nullptr, 0,
     offsetof(AllReducePayload, bytes), nullptr, nullptr},
    {0, RedOpEnum, "Reduction operation", nullptr, 0, offsetof(AllReducePayload, op), nullptr,
     nullptr}};
const nvtxPayloadEnum_t RedOps[] = {{"Sum", 0, 0}, {"Product", 1, 0}, {"Max", 2, 0}};

nvtxPayloadSchemaAttr_t schemaAttr(const nvtxPayloadSchemaEntry_t *E, size_t N, uint64_t Id,
                                   size_t Size) {
  nvtxPayloadSchemaAttr_t A{};
  A.fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
                NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES |
                NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID;
  A.type = NVTX_PAYLOAD_SCHEMA_TYPE_STATIC;
  A.entries = E;
  A.numEntries = N;
  A.payloadStaticSize = Size;
  A.schemaId = Id;
  return A;
}

/// NCCL's process, as NVTX and CUPTI show it to the runtime.
struct FakeNccl {
  NvtxRanges R;
  nvtxDomainHandle_t Dom = reinterpret_cast<nvtxDomainHandle_t>(uintptr_t(0x4000));
  uint64_t DomId = 0x4000;
  uintptr_t NextString = 0x5000;
  bool AllReduceSchemaRegistered = false;

  void fire(uint64_t Thread, CUpti_CallbackId Id, const void *Params,
            const void *Returned = nullptr) {
    CUpti_NvtxData D{"fake", Params, Returned};
    dispatchNvtx(R, Thread, Id, &D);
  }
  /// nvtx3::domain::get<nccl_domain>() and initNvtxRegisteredEnums().
  void init() {
    nvtxDomainCreateA_params Create{"NCCL"};
    fire(Main, CUPTI_CBID_NVTX_nvtxDomainCreateA, &Create, &Dom);
    nvtxPayloadEnumAttr_t E{};
    E.fieldMask = NVTX_PAYLOAD_ENUM_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_ENUM_ATTR_FIELD_NUM_ENTRIES |
                  NVTX_PAYLOAD_ENUM_ATTR_FIELD_SIZE | NVTX_PAYLOAD_ENUM_ATTR_FIELD_SCHEMA_ID;
    E.entries = RedOps;
    E.numEntries = 3;
    E.sizeOfEnum = sizeof(int);
    E.schemaId = RedOpEnum;
    EXPECT_EQ(R.registerEnum(DomId, &E), RedOpEnum);
  }
  /// registered_string_in<nccl_domain>{__func__}.
  nvtxStringHandle_t string(const char *Name) {
    auto H = reinterpret_cast<nvtxStringHandle_t>(NextString++);
    nvtxDomainRegisterStringA_params Reg{Dom, Name};
    fire(Main, CUPTI_CBID_NVTX_nvtxDomainRegisterStringA, &Reg, &H);
    return H;
  }
  nvtxEventAttributes_t attr(nvtxStringHandle_t Name) {
    nvtxEventAttributes_t A{};
    A.version = NVTX_VERSION;
    A.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    A.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    A.message.registered = Name;
    return A;
  }
  /// nvtxDomainRangePushEx as the runtime sees it: NVTX calls the wrapper
  /// of Nvtx.cpp (the caller's attributes), which calls libcupti, whose
  /// callback gets CUPTI's kept copy of the attributes (\p Copy).
  void pushEx(const nvtxEventAttributes_t &Caller, const nvtxEventAttributes_t &Copy) {
    CallerAttributes Scope(&Caller);
    nvtxDomainRangePushEx_params P{Dom, {&Copy}};
    fire(Main, CUPTI_CBID_NVTX_nvtxDomainRangePushEx, &P);
  }
  /// NCCL_NVTX3_FUNC_RANGE's push (no payload), and its pop.
  void push(const char *Func) {
    nvtxEventAttributes_t A = attr(string(Func));
    pushEx(A, A);
  }
  void pop() {
    nvtxDomainRangePop_params P{Dom};
    fire(Main, CUPTI_CBID_NVTX_nvtxDomainRangePop, &P);
  }
  /// NVTX3_FUNC_WITH_PARAMS(AllReduce, ...): the schema at the first call,
  /// the name, the push with the payload (an array of one nvtxPayloadData_t
  /// in payload.ullValue, reserved0 = 1).
  void pushAllReduce(uint64_t Comm, size_t Count, int Op) {
    nvtxEventAttributes_t Copy{};
    pushAllReduce(Comm, Count, Op, Copy);
  }
  /// ... \p Copy: CUPTI's copy of the first call's attributes (kept and
  /// returned), or the caller's when it is empty.
  void pushAllReduce(uint64_t Comm, size_t Count, int Op, nvtxEventAttributes_t &Copy) {
    if (!AllReduceSchemaRegistered) {
      nvtxPayloadSchemaAttr_t S = schemaAttr(AllReduceSchema, 3, SidAllReduce, sizeof(AllReducePayload));
      EXPECT_EQ(R.registerSchema(DomId, &S), SidAllReduce);
      AllReduceSchemaRegistered = true;
    }
    const AllReducePayload Payload = {Comm, Count * sizeof(float), Op};
    nvtxPayloadData_t Data[] = {{SidAllReduce, sizeof(Payload), &Payload}};
    nvtxEventAttributes_t A = attr(string("ncclAllReduce"));
    A.payloadType = NVTX_PAYLOAD_TYPE_EXT;
    A.reserved0 = 1;
    A.payload.ullValue = reinterpret_cast<uint64_t>(Data);
    if (!Copy.size)
      Copy = A;
    pushEx(A, Copy);
  }
};

} // namespace

TEST(NcclPayload, CollectiveBytesReachTheLaunchRecord) {
  FakeNccl N;
  N.init();
  // ncclCommInitRank: NVTX3_RANGE pushes without payload...
  N.push("ncclCommInitRank");
  // ...the application's step begins while it is open (a push range).
  nvtxRangePushA_params Step1{"step 1"};
  N.fire(Main, CUPTI_CBID_NVTX_nvtxRangePushA, &Step1);
  // The init range spans the step's start: never inside the step's path.
  EXPECT_EQ(N.R.path(Main), "step 1");
  // NVTX3_RANGE_ADD_PAYLOAD registers its schema; the destructor pops with
  // the payload (nvtxRangePopPayload, the extension's slot).
  nvtxPayloadSchemaAttr_t Init =
      schemaAttr(CommInitRankSchema, 4, SidCommInitRank, sizeof(CommInitRankPayload));
  EXPECT_EQ(N.R.registerSchema(N.DomId, &Init), SidCommInitRank);
  payloadRangePop(N.R, Main, N.DomId);
  EXPECT_EQ(N.R.path(Main), "step 1");

  // ncclAllReduce of 1048576 floats: 1048576 x 4 B = 4194304 bytes.
  N.pushAllReduce(0xabcdef0123456789ull, 1048576, /*Sum*/ 0);
  EXPECT_EQ(N.R.path(Main), "step 1/NCCL@ncclAllReduce");
  N.R.communicationLaunch(Main, /*Correlation*/ 11);
  N.pop();
  nvtxRangePop_params Pop{};
  N.fire(Main, CUPTI_CBID_NVTX_nvtxRangePop, &Pop);
  EXPECT_EQ(N.R.path(Main), "");
  EXPECT_EQ(N.R.stats().UnbalancedPops, 0u);

  std::optional<CollectiveCall> C = N.R.takeCollective(11);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Call, "ncclAllReduce");
  EXPECT_TRUE(C->HasBytes);
  EXPECT_EQ(C->Bytes, 4194304u);
  EXPECT_TRUE(C->HasComm);
  EXPECT_EQ(C->Comm, 0xabcdef0123456789ull);
  EXPECT_EQ(C->Op, "Sum");
  EXPECT_FALSE(N.R.takeCollective(11)); // once

  // The record as the profile writes it.
  LaunchRecord LR;
  LR.Name = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
  LR.Collective = C;
  nlohmann::json J = launchToJson(LR, 0);
  ASSERT_TRUE(J.contains(pk::Collective));
  EXPECT_EQ(J[pk::Collective][pk::Bytes], 4194304u);
  EXPECT_EQ(J[pk::Collective][pk::Call], "ncclAllReduce");
  EXPECT_EQ(J[pk::Collective][pk::Comm], "0xabcdef0123456789");
  EXPECT_EQ(J[pk::Collective][pk::Op], "Sum");
  EXPECT_EQ(J[pk::Collective][pk::Calls], 1);
  EXPECT_FALSE(launchToJson(LaunchRecord{}, 1).contains(pk::Collective));
}

TEST(NcclPayload, StartEndStepsAndTheOpenInitRange) {
  FakeNccl N;
  N.init();
  N.push("ncclCommInitRank"); // popped only after step 2 began
  nvtxRangeId_t Step1 = 21, Step2 = 22;
  nvtxRangeStartA_params S1{"step 1"}, S2{"step 2"};
  N.fire(Main, CUPTI_CBID_NVTX_nvtxRangeStartA, &S1, &Step1);
  N.pushAllReduce(7, 256, 2);
  EXPECT_EQ(N.R.path(Main), "step 1/NCCL@ncclAllReduce");
  N.R.communicationLaunch(Main, 31);
  N.pop();
  nvtxRangeEnd_params E1{Step1};
  N.fire(Main, CUPTI_CBID_NVTX_nvtxRangeEnd, &E1);
  N.fire(Main, CUPTI_CBID_NVTX_nvtxRangeStartA, &S2, &Step2);
  // Step 1's start/end range is closed; the init range is still open and
  // older than step 2: neither is in step 2's path.
  EXPECT_EQ(N.R.path(Main), "step 2");
  nvtxRangePushA_params Fwd{"forward"};
  N.fire(Main, CUPTI_CBID_NVTX_nvtxRangePushA, &Fwd);
  EXPECT_EQ(N.R.path(Main), "step 2/forward");
  payloadRangePop(N.R, Main, N.DomId); // the init range, popped with its payload
  EXPECT_EQ(N.R.path(Main), "step 2/forward");
  EXPECT_EQ(N.R.stats().UnbalancedPops, 0u);
  std::optional<CollectiveCall> C = N.R.takeCollective(31);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Bytes, 1024u); // 256 floats x 4 B
  EXPECT_EQ(C->Op, "Max");
}

TEST(NcclPayload, GroupedCallsLaunchInGroupEnd) {
  FakeNccl N;
  N.init();
  N.push("ncclGroupStart");
  N.pop();
  N.pushAllReduce(9, 1000, 0); // 4000 B
  N.pop();
  N.pushAllReduce(9, 24, 0); // 96 B
  N.pop();
  N.push("ncclGroupEnd");
  N.R.communicationLaunch(Main, 41); // the group's kernel
  N.pop();
  std::optional<CollectiveCall> C = N.R.takeCollective(41);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Calls, 2u);
  EXPECT_EQ(C->Bytes, 4096u); // 4000 + 96

  // Two communicators in one group: one kernel, bytes not shared out.
  N.pushAllReduce(9, 10, 0);
  N.pop();
  N.pushAllReduce(10, 10, 0);
  N.pop();
  N.push("ncclGroupEnd");
  N.R.communicationLaunch(Main, 42);
  N.pop();
  EXPECT_FALSE(N.R.takeCollective(42));
  EXPECT_EQ(N.R.stats().MixedGroups, 1u);

  // A grouped call whose group launched nothing is dropped at the group's
  // end, not given to a later launch.
  N.pushAllReduce(9, 10, 0);
  N.pop();
  N.push("ncclGroupEnd");
  N.pop();
  N.push("ncclBroadcast");
  N.R.communicationLaunch(Main, 43);
  N.pop();
  EXPECT_FALSE(N.R.takeCollective(43));
}

TEST(NcclPayload, CuptisKeptCopyIsNeverRead) {
  FakeNccl N;
  N.init();
  // CUPTI's callback gets the first call's attributes again at each later
  // call: their payload pointer is that call's stack. The runtime reads the
  // payload from the caller's attributes, so the second call's bytes are
  // the second call's.
  nvtxEventAttributes_t Kept{};
  N.pushAllReduce(3, 100, 0, Kept); // 400 B
  N.R.communicationLaunch(Main, 51);
  N.pop();
  N.pushAllReduce(3, 1000, 0, Kept); // 4000 B
  N.R.communicationLaunch(Main, 52);
  N.pop();
  std::optional<CollectiveCall> A = N.R.takeCollective(51), B = N.R.takeCollective(52);
  ASSERT_TRUE(A && B);
  EXPECT_EQ(A->Bytes, 400u);
  EXPECT_EQ(B->Bytes, 4000u);

  // Without the caller's attributes (NVTX's slot not wrapped), the copy's
  // payload is not read: no collective, and the range is followed.
  nvtxPayloadData_t Stale[] = {{SidAllReduce, SIZE_MAX, nullptr}};
  nvtxEventAttributes_t Copy = N.attr(N.string("ncclAllReduce"));
  Copy.payloadType = NVTX_PAYLOAD_TYPE_EXT;
  Copy.reserved0 = 1;
  Copy.payload.ullValue = reinterpret_cast<uint64_t>(Stale);
  nvtxDomainRangePushEx_params P{N.Dom, {&Copy}};
  N.fire(Main, CUPTI_CBID_NVTX_nvtxDomainRangePushEx, &P);
  EXPECT_EQ(N.R.path(Main), "NCCL@ncclAllReduce");
  N.R.communicationLaunch(Main, 53);
  N.pop();
  EXPECT_FALSE(N.R.takeCollective(53));
}

TEST(NcclPayload, MalformedSchemasAndPayloadsAttachNothing) {
  PayloadSchemas S;
  const uint64_t Dom = 1;
  AllReducePayload P{5, 64, 1};
  nvtxPayloadData_t D{SidAllReduce, sizeof(P), &P};
  // Unknown schema id.
  EXPECT_FALSE(S.decode(Dom, &D, 1));
  // Unusable attributes: nothing kept.
  EXPECT_EQ(S.registerSchema(Dom, nullptr), 0u);
  nvtxPayloadSchemaAttr_t NoEntries = schemaAttr(nullptr, 3, SidAllReduce, sizeof(P));
  EXPECT_EQ(S.registerSchema(Dom, &NoEntries), 0u);
  EXPECT_EQ(S.schemas(), 0u);
  nvtxPayloadSchemaAttr_t A = schemaAttr(AllReduceSchema, 3, SidAllReduce, sizeof(P));
  EXPECT_EQ(S.registerSchema(Dom, &A), SidAllReduce);
  // Another domain's schema of the same id is another schema.
  EXPECT_FALSE(S.decode(Dom + 1, &D, 1));
  // A payload cut before the message size: no bytes, no collective.
  nvtxPayloadData_t Short{SidAllReduce, 12, &P};
  EXPECT_FALSE(S.decode(Dom, &Short, 1));
  nvtxPayloadData_t Null{SidAllReduce, sizeof(P), nullptr};
  EXPECT_FALSE(S.decode(Dom, &Null, 1));
  EXPECT_FALSE(S.decode(Dom, nullptr, 1));
  // The whole payload. The op's enum was never registered: its size is
  // unknown, so it is not read.
  std::optional<CollectiveCall> C = S.decode(Dom, &D, 1);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Bytes, 64u);
  EXPECT_EQ(C->Comm, 5u);
  EXPECT_EQ(C->Op, "");
  // SIZE_MAX: the schema's static size is used.
  nvtxPayloadData_t Unsized{SidAllReduce, SIZE_MAX, &P};
  EXPECT_TRUE(S.decode(Dom, &Unsized, 1));
  // Entries past the end, a pointer entry, a float "size": never read.
  const nvtxPayloadSchemaEntry_t Bad[] = {
      {0, NVTX_PAYLOAD_ENTRY_TYPE_SIZE, "Message size [bytes]", nullptr, 0, 1 << 20, nullptr,
       nullptr},
      {NVTX_PAYLOAD_ENTRY_FLAG_POINTER, NVTX_PAYLOAD_ENTRY_TYPE_SIZE, "Message size [bytes]",
       nullptr, 0, 8, nullptr, nullptr},
      {0, NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE, "Message size [bytes]", nullptr, 0, 8, nullptr,
       nullptr}};
  nvtxPayloadSchemaAttr_t BadAttr = schemaAttr(Bad, 3, SidStart + 99, sizeof(P));
  EXPECT_EQ(S.registerSchema(Dom, &BadAttr), SidStart + 99);
  nvtxPayloadData_t BadData{SidStart + 99, sizeof(P), &P};
  EXPECT_FALSE(S.decode(Dom, &BadData, 1));
  // A dynamic schema: kept, never read (its offsets depend on the data).
  nvtxPayloadSchemaAttr_t Dyn = schemaAttr(AllReduceSchema, 3, SidStart + 98, sizeof(P));
  Dyn.type = NVTX_PAYLOAD_SCHEMA_TYPE_DYNAMIC;
  EXPECT_EQ(S.registerSchema(Dom, &Dyn), SidStart + 98);
  nvtxPayloadData_t DynData{SidStart + 98, sizeof(P), &P};
  EXPECT_FALSE(S.decode(Dom, &DynData, 1));
  // Entries without offsets: natural alignment (8-byte hash, 8-byte size).
  const nvtxPayloadSchemaEntry_t Packed[] = {
      {0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "NCCL communicator ID", nullptr, 0, 0, nullptr, nullptr},
      {0, NVTX_PAYLOAD_ENTRY_TYPE_SIZE, "Message size [bytes]", nullptr, 0, 0, nullptr, nullptr}};
  nvtxPayloadSchemaAttr_t PackedAttr = schemaAttr(Packed, 2, SidStart + 97, 0);
  PackedAttr.fieldMask &= ~uint64_t(NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE);
  S.registerSchema(Dom, &PackedAttr);
  nvtxPayloadData_t PackedData{SidStart + 97, sizeof(P), &P};
  C = S.decode(Dom, &PackedData, 1);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Comm, 5u);
  EXPECT_EQ(C->Bytes, 64u);
}
