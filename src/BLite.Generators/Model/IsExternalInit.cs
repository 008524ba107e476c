namespace System.Runtime.CompilerServices;

// netstandard2.0 lacks this marker type; records and init accessors in the pipeline models need it.
internal static class IsExternalInit
{
}
