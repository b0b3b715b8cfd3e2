# graphjit IR of find_pair (golden_source.py:4)
from transpiler.ir import cond, for_range, int_add, int_mul, int_neg, undefined, weak


def find_pair(a, target):  # golden_source.py:4
    do_return = False  # golden_source.py:5
    retval = undefined('retval')  # golden_source.py:5
    count = 0  # golden_source.py:5
    break_1 = False  # golden_source.py:6

    def extra_test_1(retval, do_return, count, break_1, target, a):  # golden_source.py:6
        return not break_1  # golden_source.py:6

    def loop_body_1(i, retval, do_return, count, break_1, target, a):  # golden_source.py:6
        break_ = False  # golden_source.py:7

        def extra_test(retval, do_return, break_, count, i, target, a):  # golden_source.py:7
            return not break_  # golden_source.py:7

        def loop_body(j, retval, do_return, break_, count, i, target, a):  # golden_source.py:7

            def if_true(retval, j, i, do_return, break_):  # golden_source.py:8
                retval = int_add(int_mul(i, 100), j)  # golden_source.py:9
                do_return = True  # golden_source.py:9
                break_ = True  # golden_source.py:9
                return (retval, do_return, break_)  # golden_source.py:8

            def if_false(retval, j, i, do_return, break_):  # golden_source.py:8
                return (retval, do_return, break_)  # golden_source.py:8
            retval, do_return, break_ = cond(int_add(a[i], a[j]) == target, if_true, if_false, (retval, j, i, do_return, break_))  # golden_source.py:8

            def if_true_3(break_, a, j, count):  # golden_source.py:10

                def if_true_1(break_):  # golden_source.py:10
                    break_ = True  # golden_source.py:11
                    return break_  # golden_source.py:10

                def if_false_1(break_):  # golden_source.py:10
                    return break_  # golden_source.py:10
                break_ = cond(a[j] < weak(0, a[j]), if_true_1, if_false_1, (break_,))  # golden_source.py:10

                def if_true_2(count):  # golden_source.py:12
                    count = count + 1  # golden_source.py:12
                    return count  # golden_source.py:12

                def if_false_2(count):  # golden_source.py:12
                    return count  # golden_source.py:12
                count = cond(not break_, if_true_2, if_false_2, (count,))  # golden_source.py:12
                return (break_, count)  # golden_source.py:10

            def if_false_3(break_, a, j, count):  # golden_source.py:10
                return (break_, count)  # golden_source.py:10
            break_, count = cond(not break_, if_true_3, if_false_3, (break_, a, j, count))  # golden_source.py:10
            return (retval, do_return, break_, count)  # golden_source.py:7
        retval, do_return, break_, count = for_range(loop_body, i + 1, a.shape[0], 1, (retval, do_return, break_, count), (i, target, a), extra_test=extra_test)  # golden_source.py:7

        def if_true_4(break_1):  # golden_source.py:7
            break_1 = True  # golden_source.py:7
            return break_1  # golden_source.py:7

        def if_false_4(break_1):  # golden_source.py:7
            return break_1  # golden_source.py:7
        break_1 = cond(do_return, if_true_4, if_false_4, (break_1,))  # golden_source.py:7
        return (retval, do_return, count, break_1)  # golden_source.py:6
    retval, do_return, count, break_1 = for_range(loop_body_1, 0, a.shape[0], 1, (retval, do_return, count, break_1), (target, a), extra_test=extra_test_1)  # golden_source.py:6

    def if_true_5(retval, count):  # golden_source.py:6
        retval = int_neg(count)  # golden_source.py:13
        do_return = True  # golden_source.py:13
        return retval  # golden_source.py:6

    def if_false_5(retval, count):  # golden_source.py:6
        return retval  # golden_source.py:6
    retval = cond(not do_return, if_true_5, if_false_5, (retval, count))  # golden_source.py:6
    return retval  # golden_source.py:13
