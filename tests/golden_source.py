"""A function pinned by the golden IR test: break in a nested loop and an early return."""


def find_pair(a, target):
    count = 0
    for i in range(a.shape[0]):
        for j in range(i + 1, a.shape[0]):
            if a[i] + a[j] == target:
                return i * 100 + j
            if a[j] < 0:
                break
            count += 1
    return -count
