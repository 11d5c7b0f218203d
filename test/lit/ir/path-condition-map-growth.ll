; Regression: a block that post-dominates its immediate dominator inherits the
; dominator's path condition. The copy was made from a reference into the map
; that the block's own insertion can grow, a use-after-free that crashed clang
; now and then on HeCBench segsort-cuda (kern_block_sort and this kernel; this
; CFG is llvm-reduce's reduction of gen_bk128_wp16_tc4_r33_r64_strd<int,int>,
; 47 blocks: the 48th insertion grows the map). The plain build may survive the
; bug; the lit.asan run (plugin under ASan) fails on it deterministically.
; RUN: %opt-hroof -passes='print<hroof-kernels>' %s | FileCheck %s
; CHECK-LABEL: kernel segsort_reduced
; CHECK-NEXT: exact: yes
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @segsort_reduced() {
  br label %1

1:                                                ; preds = %0
  br label %2

2:                                                ; preds = %1
  br label %3

3:                                                ; preds = %2
  br i1 false, label %4, label %5

4:                                                ; preds = %3
  br label %5

5:                                                ; preds = %4, %3
  br label %6

6:                                                ; preds = %5
  br label %7

7:                                                ; preds = %6
  br label %8

8:                                                ; preds = %7
  br i1 false, label %10, label %9

9:                                                ; preds = %8
  br label %10

10:                                               ; preds = %9, %8
  br i1 false, label %12, label %11

11:                                               ; preds = %10
  br label %12

12:                                               ; preds = %11, %10
  br label %13

13:                                               ; preds = %12
  br label %14

14:                                               ; preds = %13
  br i1 false, label %16, label %15

15:                                               ; preds = %14
  br label %16

16:                                               ; preds = %15, %14
  br i1 false, label %18, label %17

17:                                               ; preds = %16
  br label %18

18:                                               ; preds = %17, %16
  br label %19

19:                                               ; preds = %18
  br label %20

20:                                               ; preds = %19
  br i1 false, label %22, label %21

21:                                               ; preds = %20
  br label %22

22:                                               ; preds = %21, %20
  br label %23

23:                                               ; preds = %22
  br label %24

24:                                               ; preds = %23
  br label %25

25:                                               ; preds = %24
  br label %26

26:                                               ; preds = %25
  br label %27

27:                                               ; preds = %26
  br label %28

28:                                               ; preds = %27
  br label %29

29:                                               ; preds = %28
  br label %30

30:                                               ; preds = %29
  br label %31

31:                                               ; preds = %30
  br label %32

32:                                               ; preds = %31
  br label %33

33:                                               ; preds = %32
  br label %34

34:                                               ; preds = %33
  br label %35

35:                                               ; preds = %34
  br label %36

36:                                               ; preds = %35
  br label %37

37:                                               ; preds = %36
  br label %38

38:                                               ; preds = %37
  br label %39

39:                                               ; preds = %38
  br label %40

40:                                               ; preds = %39
  br label %41

41:                                               ; preds = %40
  br label %42

42:                                               ; preds = %41
  br label %43

43:                                               ; preds = %42
  br label %44

44:                                               ; preds = %43
  br label %45

45:                                               ; preds = %44
  br label %46

46:                                               ; preds = %45
  br label %47

47:                                               ; preds = %46
  ret void
}
