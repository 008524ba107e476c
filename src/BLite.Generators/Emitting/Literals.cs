using Microsoft.CodeAnalysis.CSharp;

namespace BLite.Generators.Emitting;

internal static class Literals
{
    public static string String(string value) => SymbolDisplay.FormatLiteral(value, quote: true);

    public static string Utf8(string value) => String(value) + "u8";
}
