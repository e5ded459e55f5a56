package lab

// Share is part i's share of total work split among parts (0 ≤ i <
// parts): an even share, the first total%parts parts taking one more, so
// that the shares add up to total.
func Share(total, parts, i int) int {
	n := total / parts
	if i < total%parts {
		n++
	}
	return n
}
