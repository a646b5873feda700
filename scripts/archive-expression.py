#!/usr/bin/env python3
"""Prints the base64 of an NSKeyedArchiver archive of the NSExpression `$source.<key path>`, laid
out as Xcode writes a mapping model's `valueexpressiondata` (an NSKeyPathExpression: selector
valueForKeyPath:, a variable operand `source`, one key-path-specifier argument), for writing
.xcmappingmodel files by hand. Usage: scripts/archive-expression.py dateCreated"""
import base64
import plistlib
import sys

UID = plistlib.UID


def archive(key_path: str) -> bytes:
    def cls(name, *supers):
        return {"$classname": name, "$classes": [name, *supers]}

    objects = [
        "$null",
        {"NSOperand": UID(3), "NSSelectorName": UID(2), "NSExpressionType": 4, "NSArguments": UID(6), "$class": UID(11)},
        "valueForKeyPath:",
        {"NSVariable": UID(4), "NSExpressionType": 2, "$class": UID(5)},
        "source",
        cls("NSVariableExpression", "NSExpression", "NSObject"),
        {"NS.objects": [UID(7)], "$class": UID(10)},
        {"$class": UID(9), "NSExpressionType": 10, "NSKeyPath": UID(8)},
        key_path,
        cls("NSKeyPathSpecifierExpression", "NSExpression", "NSObject"),
        cls("NSMutableArray", "NSArray", "NSObject"),
        cls("NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"),
    ]
    root = {"$version": 100000, "$objects": objects, "$archiver": "NSKeyedArchiver", "$top": {"root": UID(1)}}
    return plistlib.dumps(root, fmt=plistlib.FMT_BINARY)


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1]:
        sys.exit("usage: archive-expression.py KEYPATH")
    print(base64.b64encode(archive(sys.argv[1])).decode())
