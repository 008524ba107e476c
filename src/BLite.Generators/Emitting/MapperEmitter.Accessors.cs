using BLite.Generators.Model;
using BLite.Generators.Parsing;

namespace BLite.Generators.Emitting;

internal enum AccessorKind
{
    Getter,
    Setter,
    Field,
}

internal sealed partial class MapperEmitter
{
    /// <summary>An expression reading the member from <paramref name="target"/>.</summary>
    private string MemberValue(MemberSpec member, string target)
    {
        var byRef = member.DeclaringTypeIsValueType ? "ref " : "";
        return member.Read switch
        {
            MemberReadKind.Direct => target + "." + member.Name,
            MemberReadKind.GetterAccessor => $"{Accessor(member, AccessorKind.Getter, member.GetterTarget)}({byRef}{target})",
            _ => $"{Accessor(member, AccessorKind.Field, member.GetterTarget)}({byRef}{target})",
        };
    }

    /// <summary>
    /// Declares (once) an [UnsafeAccessor] extern reaching a non-public member without reflection,
    /// and returns its name. The target parameter is the declaring type, so inherited private
    /// members resolve on the base class that declares them.
    /// </summary>
    private string Accessor(MemberSpec member, AccessorKind kind, string target)
    {
        var declaring = member.DeclaringTypeName;
        var name = "__" + kind + "_" + TypeNames.Sanitize(declaring.Replace("global::", "")) + "_" + TypeNames.Sanitize(target);
        if (_accessors.ContainsKey(name))
        {
            return name;
        }

        var targetParameter = (member.DeclaringTypeIsValueType ? "ref " : "") + declaring + " target";
        var valueType = member.Value.TypeName;
        var attributeKind = kind == AccessorKind.Field ? "Field" : "Method";
        var signature = kind switch
        {
            AccessorKind.Getter => $"private static extern {valueType} {name}({targetParameter});",
            AccessorKind.Setter => $"private static extern void {name}({targetParameter}, {valueType} value);",
            _ => $"private static extern ref {valueType} {name}({targetParameter});",
        };
        _accessors.Add(name, new[]
        {
            $"[global::System.Runtime.CompilerServices.UnsafeAccessor(global::System.Runtime.CompilerServices.UnsafeAccessorKind.{attributeKind}, Name = {Literals.String(target)})]",
            signature,
        });
        return name;
    }
}
