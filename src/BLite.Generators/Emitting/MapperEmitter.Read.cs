using System.Collections.Generic;
using System.Globalization;
using BLite.Generators.Model;

namespace BLite.Generators.Emitting;

internal sealed partial class MapperEmitter
{
    private void EmitReadMethods(ObjectTypeSpec type, int index)
    {
        if (type.CanConstruct)
        {
            EmitRead(type, index);
        }

        if (type.IsPolymorphic)
        {
            EmitPolymorphicRead(type, index);
        }
    }

    private string ReadCall(int typeIndex, bool polymorphic)
        => $"Read{_spec.Types[typeIndex].MethodSuffix}{(polymorphic ? "Any" : "")}(ref reader)";

    private void EmitRead(ObjectTypeSpec type, int index)
    {
        var w = _writer;
        var members = type.Members;
        var constructFirst = CanConstructFirst(type);
        var fillsGiven = _filledTypes.Contains(index);
        if (fillsGiven)
        {
            // Another type's initializer made an instance of this one: its reader fills that
            // instance, and a reader that has none makes one the same way.
            w.Line($"private {type.TypeName} Read{type.MethodSuffix}(ref {ReaderType} reader) => Read{type.MethodSuffix}Into(ref reader, new {type.TypeName}());");
            w.Line();
            w.Open($"private {type.TypeName} Read{type.MethodSuffix}Into(ref {ReaderType} reader, {type.TypeName} result)");
            w.Line("reader.ReadDocumentStart();");
        }
        else
        {
            w.Open($"private {type.TypeName} Read{type.MethodSuffix}(ref {ReaderType} reader)");
            w.Line("reader.ReadDocumentStart();");
        }

        if (constructFirst && !fillsGiven)
        {
            // Nothing the document holds goes to the constructor, so the object is made first and
            // settable members are read straight into it: no local and no flag per member, and no
            // copying once the document ends.
            w.Line($"var result = new {type.TypeName}();");
        }

        for (var i = 0; i < members.Count; i++)
        {
            if (constructFirst && members[i].Write == MemberWriteKind.Assign)
            {
                if (FillsInitializerObject(constructFirst, members[i]))
                {
                    // A second field of the same name (not written by BLite) replaces the object,
                    // as it would without the fill: only the first one fills the initializer's.
                    w.Line($"var fresh{i} = true;");
                }

                continue;
            }

            w.Line($"{members[i].Value.AnnotatedTypeName} m{i} = default!;");
            if (IsAssignedAfterConstruction(members[i]))
            {
                w.Line($"var has{i} = false;");
            }
        }

        w.Line($"var ordinals = _ordinals{index};");
        w.Open("while (reader.TryReadFieldHeader(out var type, out var fieldId))");
        w.Open("switch (fieldId < ordinals.Length ? ordinals[fieldId] : 0)");
        for (var i = 0; i < members.Count; i++)
        {
            var direct = constructFirst && members[i].Write == MemberWriteKind.Assign;
            var label = type.DisplayName + "." + members[i].Name.TrimStart('@');
            w.Line($"case {(i + 1).ToString(CultureInfo.InvariantCulture)}:");
            w.Open();
            if (direct && members[i].HasFreshEmptyInitializer)
            {
                ReadIntoInitializerValue(members[i], i, label);
            }
            else
            {
                ReadValue(members[i].Value, direct ? "result." + members[i].Name : "m" + i, "type", label);
            }

            if (!direct && IsAssignedAfterConstruction(members[i]))
            {
                w.Line($"has{i} = true;");
            }

            w.Line("break;");
            w.Close();
        }

        w.Line("default:");
        w.Line("    reader.SkipValue(type);");
        w.Line("    break;");
        w.Close();
        w.Close();
        w.Line();
        EmitConstruction(type, constructFirst);
        w.Close();
        w.Line();
    }

    private static bool FillsInitializerObject(bool constructFirst, MemberSpec member)
        => constructFirst && member.Write == MemberWriteKind.Assign && member.HasFreshEmptyInitializer && member.Value.Kind == ValueKind.Object;

    /// <summary>
    /// Reads a member whose initializer made a new, empty instance (the parser checked that no
    /// constructor touches it): that instance is filled rather than replaced, saving the allocation
    /// of another and the garbage of the first. A list, set or dictionary already holding items (a
    /// second field of the same name) is replaced, so the result always holds exactly the stored items.
    /// </summary>
    private void ReadIntoInitializerValue(MemberSpec member, int index, string label)
    {
        var w = _writer;
        var value = member.Value;
        var target = "result." + member.Name;
        w.Open($"if (type == {BsonTypePrefix}Null)");
        w.Line($"{target} = null!;");
        w.Close();
        w.Open("else");
        if (value.Kind == ValueKind.Object)
        {
            var existing = "existing" + index.ToString(CultureInfo.InvariantCulture);
            w.Line($"{MemberReader}ExpectType(ref reader, type, {BsonTypePrefix}Document, {Literals.String(label)});");
            w.Open($"if ({target} is {{ }} {existing} && fresh{index})");
            w.Line($"fresh{index} = false;");
            w.Line($"Read{_spec.Types[value.TypeIndex].MethodSuffix}Into(ref reader, {existing});");
            w.Close();
            w.Open("else");
            w.Line($"{target} = {ReadCall(value.TypeIndex, polymorphic: false)};");
            w.Close();
        }
        else if (value.Kind == ValueKind.Dictionary)
        {
            w.Line($"{MemberReader}ExpectType(ref reader, type, {BsonTypePrefix}Document, {Literals.String(label)});");
            ReadDictionary(value, target, label, fillsInitializer: true);
        }
        else
        {
            w.Line($"{MemberReader}ExpectType(ref reader, type, {BsonTypePrefix}Array, {Literals.String(label)});");
            var items = GatherItems(value, label);
            w.Open($"if (!{items}.TryFill({target}))");
            w.Line($"{target} = {items}.{(value.Collection == CollectionKind.HashSet ? "ToHashSet" : "ToList")}();");
            w.Close();
        }

        w.Close();
    }

    /// <summary>Whether the type is made with its parameterless constructor and no initializer, so it can exist before its members are read.</summary>
    private static bool CanConstructFirst(ObjectTypeSpec type)
    {
        if (type.ConstructorParameterCount != 0)
        {
            return false;
        }

        foreach (var member in type.Members)
        {
            if (member.Write is MemberWriteKind.Constructor or MemberWriteKind.Initializer)
            {
                return false;
            }
        }

        return true;
    }

    private void EmitConstruction(ObjectTypeSpec type, bool constructedFirst)
    {
        var w = _writer;
        var members = type.Members;
        if (!constructedFirst)
        {
            EmitConstructorCall(type);
        }

        var byRef = type.IsValueType ? "ref " : "";
        for (var i = 0; i < members.Count; i++)
        {
            var member = members[i];
            if (!IsAssignedAfterConstruction(member) || (constructedFirst && member.Write == MemberWriteKind.Assign))
            {
                continue;
            }

            w.Open($"if (has{i})");
            w.Line(member.Write switch
            {
                MemberWriteKind.Assign => $"result.{member.Name} = m{i};",
                MemberWriteKind.SetterAccessor => $"{Accessor(member, AccessorKind.Setter, member.AccessorTarget)}({byRef}result, m{i});",
                _ => $"{Accessor(member, AccessorKind.Field, member.AccessorTarget)}({byRef}result) = m{i};",
            });
            w.Close();
        }

        w.Line("return result;");
    }

    private void EmitConstructorCall(ObjectTypeSpec type)
    {
        var w = _writer;
        var members = type.Members;
        var arguments = new string[type.ConstructorParameterCount];
        var initializers = new List<string>();
        for (var i = 0; i < members.Count; i++)
        {
            if (members[i].Write == MemberWriteKind.Constructor)
            {
                arguments[members[i].ConstructorParameterIndex] = "m" + i;
            }
            else if (members[i].Write == MemberWriteKind.Initializer)
            {
                initializers.Add($"{members[i].Name} = m{i}");
            }
        }

        var construction = $"var result = new {type.TypeName}({string.Join(", ", arguments)})";
        if (initializers.Count == 0)
        {
            w.Line(construction + ";");
        }
        else
        {
            w.Line(construction);
            w.Open();
            foreach (var initializer in initializers)
            {
                w.Line(initializer + ",");
            }

            w.Close(";");
        }
    }

    /// <summary>Members set after construction keep their initializer value when the document lacks them.</summary>
    private static bool IsAssignedAfterConstruction(MemberSpec member)
        => member.Write is MemberWriteKind.Assign or MemberWriteKind.SetterAccessor or MemberWriteKind.FieldAccessor;

    private void EmitPolymorphicRead(ObjectTypeSpec type, int index)
    {
        var w = _writer;
        var display = Literals.String(type.DisplayName);
        w.Open($"private {type.TypeName} Read{type.MethodSuffix}Any(ref {ReaderType} reader)");
        w.Line($"var discriminator = {MemberReader}ReadDiscriminator(reader, {FieldVariable(Bson.Mapping.MappingConventions.DiscriminatorFieldName)}, {display});");
        w.Open("if (discriminator.IsEmpty)");
        w.Line(type.CanConstruct ? $"return {ReadCall(index, polymorphic: false)};" : $"throw {MemberReader}MissingDiscriminator({display});");
        w.Close();
        w.Line();
        foreach (var derived in type.DerivedTypes)
        {
            w.Open($"if (global::System.MemoryExtensions.SequenceEqual(discriminator, {Literals.Utf8(derived.Discriminator)}))");
            w.Line($"return {ReadCall(derived.TypeIndex, polymorphic: false)};");
            w.Close();
            w.Line();
        }

        w.Line($"throw {MemberReader}UnknownDiscriminator(discriminator, {display});");
        w.Close();
        w.Line();
    }

    /// <summary>Reads one value whose header (type in <paramref name="typeVariable"/>) was just read, into <paramref name="target"/>.</summary>
    private void ReadValue(ValueSpec value, string target, string typeVariable, string label)
    {
        var w = _writer;
        var labelLiteral = Literals.String(label);
        switch (value.Kind)
        {
            case ValueKind.Nullable:
                w.Open($"if ({typeVariable} == {BsonTypePrefix}Null)");
                w.Line($"{target} = null;");
                w.Close();
                w.Open("else");
                ReadValue(value.Element!, target, typeVariable, label);
                w.Close();
                return;
            case ValueKind.Enum:
                w.Line($"{target} = ({value.TypeName}){ScalarRead(value.Element!, typeVariable, labelLiteral)};");
                return;
            case ValueKind.DocumentRef:
                w.Open($"if ({typeVariable} == {BsonTypePrefix}Null)");
                w.Line($"{target} = null;");
                w.Close();
                w.Open("else");
                w.Line($"{target} = new {value.TypeName}({ScalarRead(value.Element!, typeVariable, labelLiteral)});");
                w.Close();
                return;
            case ValueKind.ConvertedId:
                w.Line($"{target} = _idConverter.Read(ref reader, {typeVariable}, _fieldDictionary);");
                return;
            case ValueKind.Object:
            case ValueKind.Collection:
            case ValueKind.Dictionary:
                ReadContainer(value, target, typeVariable, label);
                return;
            case ValueKind.Float32VectorMemory:
                w.Line($"{target} = new global::System.ReadOnlyMemory<float>({ScalarRead(value, typeVariable, labelLiteral)});");
                return;
            default:
                w.Line($"{target} = {ScalarRead(value, typeVariable, labelLiteral)};");
                return;
        }
    }

    private void ReadContainer(ValueSpec value, string target, string typeVariable, string label)
    {
        var w = _writer;
        if (value.IsReferenceType)
        {
            w.Open($"if ({typeVariable} == {BsonTypePrefix}Null)");
            w.Line($"{target} = null!;");
            w.Close();
            w.Open("else");
        }

        var container = value.Kind == ValueKind.Collection ? "Array" : "Document";
        w.Line($"{MemberReader}ExpectType(ref reader, {typeVariable}, {BsonTypePrefix}{container}, {Literals.String(label)});");
        switch (value.Kind)
        {
            case ValueKind.Object:
                w.Line($"{target} = {ReadCall(value.TypeIndex, value.IsPolymorphic)};");
                break;
            case ValueKind.Collection:
                ReadCollection(value, target, label);
                break;
            default:
                ReadDictionary(value, target, label);
                break;
        }

        if (value.IsReferenceType)
        {
            w.Close();
        }
    }

    private void ReadCollection(ValueSpec value, string target, string label)
    {
        var w = _writer;
        var items = GatherItems(value, label);
        w.Line(value.Collection switch
        {
            CollectionKind.Array => $"{target} = {items}.ToArray();",
            CollectionKind.HashSet or CollectionKind.ISet or CollectionKind.IReadOnlySet => $"{target} = {items}.ToHashSet();",
            _ => $"{target} = {items}.ToList();",
        });
    }

    /// <summary>Reads the array's items into a new item buffer, whose name it returns.</summary>
    private string GatherItems(ValueSpec value, string label)
    {
        var w = _writer;
        var element = value.Element!;
        var items = Temp("items");
        var itemType = Temp("itemType");
        var item = Temp("item");
        // The items gather in a stack buffer and the collection is made once at its exact size:
        // no regrowth, no garbage beyond the result, and no second walk to count them first.
        w.Line($"var {items} = new {ItemBufferType}<{element.AnnotatedTypeName}>();");
        w.Line("reader.ReadArrayStart();");
        w.Open($"while (reader.TryReadItemHeader(out var {itemType}))");
        w.Line($"{element.AnnotatedTypeName} {item};");
        ReadValue(element, item, itemType, label + "[]");
        w.Line($"{items}.Add({item});");
        w.Close();
        return items;
    }

    /// <summary>
    /// Reads an embedded document into a new dictionary, or with <paramref name="fillsInitializer"/>
    /// into the empty one <paramref name="target"/> already holds (one holding entries, from a
    /// second field of the same name, is replaced).
    /// </summary>
    private void ReadDictionary(ValueSpec value, string target, string label, bool fillsInitializer = false)
    {
        var w = _writer;
        var element = value.Element!;
        var dictionary = Temp("dictionary");
        var entryType = Temp("entryType");
        var entryId = Temp("entryId");
        var item = Temp("item");
        var created = $"new global::System.Collections.Generic.Dictionary<string, {element.AnnotatedTypeName}>";
        if (fillsInitializer)
        {
            w.Line($"var {dictionary}Count = {MemberReader}CountDocumentFields(reader);");
            w.Line($"var {dictionary} = {target} is {{ Count: 0 }} {dictionary}Given ? {dictionary}Given : {created}({dictionary}Count);");
            w.Line($"{dictionary}.EnsureCapacity({dictionary}Count);");
        }
        else
        {
            w.Line($"var {dictionary} = {created}({MemberReader}CountDocumentFields(reader));");
        }

        w.Line("reader.ReadDocumentStart();");
        w.Open($"while (reader.TryReadFieldHeader(out var {entryType}, out var {entryId}))");
        w.Line($"var {item}Key = {MemberReader}ReadDictionaryKey(_fieldDictionary, {entryId}, {Literals.String(label)});");
        w.Line($"{element.AnnotatedTypeName} {item};");
        ReadValue(element, item, entryType, label + "[]");
        w.Line($"{dictionary}[{item}Key] = {item};");
        w.Close();
        w.Line($"{target} = {dictionary};");
    }

    private static string ScalarRead(ValueSpec value, string typeVariable, string label)
    {
        var suppress = value.IsReferenceType ? "!" : "";
        return $"{MemberReader}{ScalarReadMethod(value)}(ref reader, {typeVariable}, {label}){suppress}";
    }

    /// <summary>The typed read of a scalar, named alike in BsonMemberReader and JsonbMemberReader.</summary>
    private static string ScalarReadMethod(ValueSpec value) => value.Kind switch
    {
        ValueKind.String => "ReadString",
        ValueKind.Boolean => "ReadBoolean",
        ValueKind.Double => "ReadDouble",
        ValueKind.Single => "ReadSingle",
        ValueKind.Int32 => "ReadInt32",
        ValueKind.Int16 => "ReadInt16",
        ValueKind.SByte => "ReadSByte",
        ValueKind.Byte => "ReadByte",
        ValueKind.UInt16 => "ReadUInt16",
        ValueKind.Char => "ReadChar",
        ValueKind.Int64 => "ReadInt64",
        ValueKind.UInt32 => "ReadUInt32",
        ValueKind.UInt64 => "ReadUInt64",
        ValueKind.Decimal => "ReadDecimal",
        ValueKind.Guid => "ReadGuid",
        ValueKind.ObjectId => "ReadObjectId",
        ValueKind.DateTime => "ReadDateTime",
        ValueKind.DateTimeOffset => "ReadDateTimeOffset",
        ValueKind.TimeSpan => "ReadTimeSpan",
        ValueKind.DateOnly => "ReadDateOnly",
        ValueKind.TimeOnly => "ReadTimeOnly",
        ValueKind.Float32Vector or ValueKind.Float32VectorMemory => "ReadFloat32Vector",
        _ => "ReadBinary",
    };
}
