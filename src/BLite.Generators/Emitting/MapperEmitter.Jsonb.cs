using System.Globalization;
using BLite.Generators.Model;

namespace BLite.Generators.Emitting;

/// <summary>
/// The mapper's jsonb half (IJsonbDocumentMapper): the document written as BLite's jsonb form and
/// read back from it straight through Utf8JsonWriter/Utf8JsonReader, so a jsonb store skips the
/// C-BSON transcoding step. The value forms themselves live in BLite.Bson's JsonbMemberWriter and
/// JsonbMemberReader, shared with the transcoder, so the two paths cannot drift apart.
/// </summary>
internal sealed partial class MapperEmitter
{
    private const string JsonbInterface = "global::BLite.Bson.Jsonb.IJsonbDocumentMapper";
    private const string JsonWriterType = "global::System.Text.Json.Utf8JsonWriter";
    private const string JsonReaderType = "global::System.Text.Json.Utf8JsonReader";
    private const string JsonbWriterHelper = "global::BLite.Bson.Jsonb.JsonbMemberWriter.";
    private const string JsonbReaderHelper = "global::BLite.Bson.Jsonb.JsonbMemberReader.";

    /// <summary>What reading text that is not a BLite document throws, turned into a BsonFormatException naming the member.</summary>
    private const string MalformedCatch = "catch (global::System.Exception error) when (error is global::System.Text.Json.JsonException or global::System.FormatException or global::System.OverflowException or global::System.ArgumentException or global::System.InvalidOperationException)";

    private string JsonbInterfaceName => $"{JsonbInterface}<{_spec.DocumentTypeName}>";

    private void EmitJsonb()
    {
        var w = _writer;
        for (var i = 0; i < _fieldNames.Count; i++)
        {
            w.Line($"private static readonly global::System.Text.Json.JsonEncodedText _jsonbKey{i} = global::System.Text.Json.JsonEncodedText.Encode({Literals.String(StoredKey(_fieldNames[i]))}, global::System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping);");
        }

        w.Line();
        var document = _spec.DocumentTypeName;
        w.Open($"public void WriteJsonb({document} document, {JsonWriterType} writer)");
        w.Line("global::System.ArgumentNullException.ThrowIfNull(document);");
        w.Line("global::System.ArgumentNullException.ThrowIfNull(writer);");
        w.Line(WriteCall(Root, Root.IsPolymorphic, "document", "1", JsonbTarget) + ";");
        w.Close();
        w.Line();
        var display = Literals.String(Root.DisplayName);
        w.Open($"public {document} ReadJsonb(global::System.ReadOnlySpan<byte> utf8Json)");
        w.Line($"var json = new {JsonReaderType}(utf8Json, {JsonbReaderHelper}Options);");
        w.Open("try");
        w.Line($"{JsonbReaderHelper}Next(ref json);");
        w.Line($"{JsonbReaderHelper}ExpectDocument(ref json, {display});");
        w.Line($"var result = {JsonbReadCall(0, Root.IsPolymorphic)};");
        w.Line($"{JsonbReaderHelper}ExpectEnd(ref json);");
        w.Line("return result;");
        w.Close();
        w.Line(MalformedCatch);
        w.Open();
        w.Line($"throw {JsonbReaderHelper}Malformed({display}, error);");
        w.Close();
        w.Close();
        w.Line();
        for (var i = 0; i < _spec.Types.Count; i++)
        {
            EmitJsonbWriteMethods(_spec.Types[i]);
        }

        for (var i = 0; i < _spec.Types.Count; i++)
        {
            EmitJsonbReadMethods(_spec.Types[i], i);
        }
    }

    /// <summary>The jsonb key of a stored field name: one more <c>$</c> in front of a name that starts with <c>$</c>.</summary>
    private static string StoredKey(string storedName) => storedName.StartsWith("$", System.StringComparison.Ordinal) ? "$" + storedName : storedName;

    private string JsonbKey(string storedName) => "_jsonbKey" + FieldIndex(storedName).ToString(CultureInfo.InvariantCulture);
}
