package agentlock

import "fmt"

func holdForHelper(kind, arg string) error {
	switch kind {
	case "gate":
		_, held, err := bindAbstract(arg)
		if err == nil && held {
			err = fmt.Errorf("gate %s is held already", arg)
		}
		return err
	case "flock":
		return flockHold(arg)
	case "sleep":
		return nil
	}
	return fmt.Errorf("unknown helper kind %q", kind)
}
