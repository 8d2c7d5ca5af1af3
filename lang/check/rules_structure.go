package check

// structureRules check the structure of the file: keys, dialects, ignored
// fields.
var structureRules = []*Analyzer{
	YAMLUnusedAnchor,
	UnknownKey,
	MetadataKey,
	DuplicateKeySpelling,
	PreferCanonicalKey,
	RunAndCommand,
	WhenAndCondition,
	BlankExecution,
	IgnoredStdin,
	OrphanLoopFields,
	IgnoredStepPolicy,
	ForeignDialect,
	MustacheSyntax,
	InvalidUTF8,
	BidiControl,
	NulInShell,
}
