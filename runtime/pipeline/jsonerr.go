package pipeline

// jsonErrorMessage is the message of a JSON parse error of text.
func jsonErrorMessage(text string, err error) string {
	return err.Error()
}
