using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text;
using BLite.Generators.Model;

namespace BLite.Generators.Emitting;

/// <summary>
/// Emits JsonbRead methods: keys matched by length then UTF-8 bytes (jsonb orders keys itself, so
/// no order is assumed), unknown keys skipped, and construction shared with the C-BSON reader. A
/// value of the wrong type fails in JsonbMemberReader naming the member; text that is not JSON
/// fails here, naming the member being read.
/// </summary>
internal sealed partial class MapperEmitter
{
    private const string JsonTokenPrefix = "global::System.Text.Json.JsonTokenType.";

    private void EmitJsonbReadMethods(ObjectTypeSpec type, int index)
    {
        if (type.CanConstruct)
        {
            EmitJsonbRead(type);
        }

        if (type.IsPolymorphic)
        {
            EmitJsonbPolymorphicRead(type, index);
        }
    }

    private string JsonbReadCall(int typeIndex, bool polymorphic)
        => $"JsonbRead{_spec.Types[typeIndex].MethodSuffix}{(polymorphic ? "Any" : "")}(ref json)";

    private void EmitJsonbRead(ObjectTypeSpec type)
    {
        var w = _writer;
        var members = type.Members;
        w.Open($"private {type.TypeName} JsonbRead{type.MethodSuffix}(ref {JsonReaderType} json)");
        for (var i = 0; i < members.Count; i++)
        {
            w.Line($"{members[i].Value.AnnotatedTypeName} m{i} = default!;");
            if (IsAssignedAfterConstruction(members[i]))
            {
                w.Line($"var has{i} = false;");
            }
        }

        w.Line($"var member = {Literals.String(type.DisplayName)};");
        w.Open("try");
        w.Open($"while ({JsonbReaderHelper}NextProperty(ref json))");
        w.Line($"var name = {JsonbReaderHelper}PropertyName(ref json);");
        w.Line($"{JsonbReaderHelper}Next(ref json);");
        w.Open("switch (name.Length)");
        var byLength = members
            .Select((member, i) => (Key: Encoding.UTF8.GetBytes(StoredKey(member.StoredName)), Member: member, Index: i))
            .GroupBy(m => m.Key.Length)
            .OrderBy(g => g.Key);
        foreach (var group in byLength)
        {
            w.Open($"case {group.Key.ToString(CultureInfo.InvariantCulture)}:");
            foreach (var (key, member, i) in group)
            {
                var label = type.DisplayName + "." + member.Name.TrimStart('@');
                w.Open($"if (global::System.MemoryExtensions.SequenceEqual(name, {Literals.Utf8(Encoding.UTF8.GetString(key))}))");
                w.Line($"member = {Literals.String(label)};");
                JsonbReadValue(member.Value, "m" + i.ToString(CultureInfo.InvariantCulture), label);
                if (IsAssignedAfterConstruction(member))
                {
                    w.Line($"has{i} = true;");
                }

                w.Line("continue;");
                w.Close();
            }

            w.Line("break;");
            w.Close();
        }

        w.Close();
        w.Line($"{JsonbReaderHelper}Skip(ref json);");
        w.Close();
        w.Close();
        w.Line(MalformedCatch);
        w.Open();
        w.Line($"throw {JsonbReaderHelper}Malformed(member, error);");
        w.Close();
        w.Line();
        EmitConstruction(type, constructedFirst: false);
        w.Close();
        w.Line();
    }

    private void EmitJsonbPolymorphicRead(ObjectTypeSpec type, int index)
    {
        var w = _writer;
        var display = Literals.String(type.DisplayName);
        w.Open($"private {type.TypeName} JsonbRead{type.MethodSuffix}Any(ref {JsonReaderType} json)");
        w.Line($"var discriminator = {JsonbReaderHelper}ReadDiscriminator(json, {display});");
        w.Open("if (discriminator.IsEmpty)");
        w.Line(type.CanConstruct ? $"return {JsonbReadCall(index, polymorphic: false)};" : $"throw {MemberReader}MissingDiscriminator({display});");
        w.Close();
        w.Line();
        foreach (var derived in type.DerivedTypes)
        {
            w.Open($"if (global::System.MemoryExtensions.SequenceEqual(discriminator, {Literals.Utf8(derived.Discriminator)}))");
            w.Line($"return {JsonbReadCall(derived.TypeIndex, polymorphic: false)};");
            w.Close();
            w.Line();
        }

        w.Line($"throw {MemberReader}UnknownDiscriminator(discriminator, {display});");
        w.Close();
        w.Line();
    }

    /// <summary>Reads the value the reader stands on into <paramref name="target"/>.</summary>
    private void JsonbReadValue(ValueSpec value, string target, string label)
    {
        var w = _writer;
        var labelLiteral = Literals.String(label);
        switch (value.Kind)
        {
            case ValueKind.Nullable:
            case ValueKind.DocumentRef:
                w.Open($"if (json.TokenType == {JsonTokenPrefix}Null)");
                w.Line($"{target} = null;");
                w.Close();
                w.Open("else");
                if (value.Kind == ValueKind.Nullable)
                {
                    JsonbReadValue(value.Element!, target, label);
                }
                else
                {
                    w.Line($"{target} = new {value.TypeName}({JsonbScalarRead(value.Element!, labelLiteral)});");
                }

                w.Close();
                return;
            case ValueKind.Enum:
                w.Line($"{target} = ({value.TypeName}){JsonbScalarRead(value.Element!, labelLiteral)};");
                return;
            case ValueKind.ConvertedId:
                w.Line($"{target} = _idConverter.FromKey({JsonbReaderHelper}ReadKey(ref json, {labelLiteral}));");
                return;
            case ValueKind.Object:
            case ValueKind.Collection:
            case ValueKind.Dictionary:
                JsonbReadContainer(value, target, label);
                return;
            case ValueKind.Float32VectorMemory:
                w.Line($"{target} = new global::System.ReadOnlyMemory<float>({JsonbScalarRead(value, labelLiteral)});");
                return;
            default:
                w.Line($"{target} = {JsonbScalarRead(value, labelLiteral)};");
                return;
        }
    }

    private void JsonbReadContainer(ValueSpec value, string target, string label)
    {
        var w = _writer;
        if (value.IsReferenceType)
        {
            w.Open($"if (json.TokenType == {JsonTokenPrefix}Null)");
            w.Line($"{target} = null!;");
            w.Close();
            w.Open("else");
        }

        var labelLiteral = Literals.String(label);
        var element = value.Element;
        switch (value.Kind)
        {
            case ValueKind.Object:
                w.Line($"{JsonbReaderHelper}ExpectDocument(ref json, {labelLiteral});");
                w.Line($"{target} = {JsonbReadCall(value.TypeIndex, value.IsPolymorphic)};");
                break;
            case ValueKind.Collection:
                var collection = Temp("collection");
                var item = Temp("item");
                w.Line($"{JsonbReaderHelper}ExpectArray(ref json, {labelLiteral});");
                if (value.Collection == CollectionKind.Array)
                {
                    var index = Temp("index");
                    w.Line($"var {collection} = global::System.GC.AllocateUninitializedArray<{element!.AnnotatedTypeName}>({JsonbReaderHelper}CountArrayItems(json));");
                    w.Line($"var {index} = 0;");
                    w.Open($"while ({JsonbReaderHelper}NextItem(ref json))");
                    w.Line($"{element.AnnotatedTypeName} {item};");
                    JsonbReadValue(element, item, label + "[]");
                    w.Line($"{collection}[{index}++] = {item};");
                }
                else
                {
                    var created = value.Collection is CollectionKind.HashSet or CollectionKind.ISet or CollectionKind.IReadOnlySet ? "HashSet" : "List";
                    w.Line($"var {collection} = new global::System.Collections.Generic.{created}<{element!.AnnotatedTypeName}>();");
                    w.Open($"while ({JsonbReaderHelper}NextItem(ref json))");
                    w.Line($"{element.AnnotatedTypeName} {item};");
                    JsonbReadValue(element, item, label + "[]");
                    w.Line($"{collection}.Add({item});");
                }

                w.Close();
                w.Line($"{target} = {collection};");
                break;
            default:
                var dictionary = Temp("dictionary");
                var entry = Temp("entry");
                w.Line($"{JsonbReaderHelper}ExpectDocument(ref json, {labelLiteral});");
                w.Line($"var {dictionary} = new global::System.Collections.Generic.Dictionary<string, {element!.AnnotatedTypeName}>();");
                w.Open($"while ({JsonbReaderHelper}NextProperty(ref json))");
                w.Line($"var {entry}Key = {JsonbReaderHelper}ReadDictionaryKey(ref json);");
                w.Line($"{JsonbReaderHelper}Next(ref json);");
                w.Line($"{element.AnnotatedTypeName} {entry};");
                JsonbReadValue(element, entry, label + "[]");
                w.Line($"{dictionary}[{entry}Key] = {entry};");
                w.Close();
                w.Line($"{target} = {dictionary};");
                break;
        }

        if (value.IsReferenceType)
        {
            w.Close();
        }
    }

    private static string JsonbScalarRead(ValueSpec value, string label)
    {
        var suppress = value.IsReferenceType ? "!" : "";
        return $"{JsonbReaderHelper}{ScalarReadMethod(value)}(ref json, {label}){suppress}";
    }
}
