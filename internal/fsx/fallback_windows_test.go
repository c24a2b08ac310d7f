package fsx

func addFallback(m map[string]func(string, string) error) {}
