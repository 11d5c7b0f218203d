// times the block walk that the closed form replaces: sumOverThreads with ClosedForm off
#include "hroof/ThreadSum.h"
#include <chrono>
#include <iostream>
using namespace hroof; using nlohmann::json;
int main(){
  json G = json::array({"add", json::array({"mul", json::array({"sreg","ctaid.x"}), json::array({"sreg","ntid.x"})}), json::array({"sreg","tid.x"})});
  auto F = Expr::parse(json::array({"icmp","slt",64,G,json::array({"arg",0})}));
  LaunchShape L; L.Grid={1<<24,1,1}; L.Block={1024,1,1};
  EvalEnv Env; Env.Args={1000000000000}; Env.HasArg={true};
  for (bool Closed : {false, true}) {
    ThreadSumOptions O; O.ClosedForm = Closed;
    auto t0=std::chrono::steady_clock::now();
    u128 S = sumOverThreads({F}, L, Env, O);
    double s=std::chrono::duration<double>(std::chrono::steady_clock::now()-t0).count();
    std::cout << "closed_form=" << Closed << " blocks=" << L.Grid[0] << " sum=" << u128ToString(S) << " seconds=" << s << " ns_per_block=" << s*1e9/L.Grid[0] << "\n";
  }
}
